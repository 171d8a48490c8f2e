package io.ordo.dashboard;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.GroupName;
import io.ordo.domain.Lease;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.Priority;
import io.ordo.domain.Progress;
import io.ordo.domain.QueueName;
import io.ordo.domain.TaskId;
import io.ordo.domain.TaskState;
import io.ordo.ports.QueueStats;
import io.ordo.ports.TaskSnapshot;
import io.ordo.ports.TaskStore;
import io.ordo.ports.TaskStoreFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.ExpectedConditions;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.ordo.dashboard.HeadlessChromium.await;
import static io.ordo.dashboard.HeadlessChromium.click;
import static io.ordo.dashboard.HeadlessChromium.find;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dashboard in a real headless browser, on one backend: what the pages show is what the
 * store reports, actions from the page reach the store, requests without the token change
 * nothing, and payloads are shown as text. Each test has a queue of its own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class DashboardBrowserContract {
    static final String TOKEN = "browser-test-token-0123456789";
    private static final String TOKEN_KEY = "ordo-dashboard-token";

    private TaskStoreFactory stores;
    private DashboardServer server;

    /** The backend under test, opened once per class. */
    abstract TaskStoreFactory openStores();

    abstract String backend();

    /** Called after the stores are closed. */
    void stopBackend() {
    }

    /** The stores of the backend under test, for the contract's other parts ({@link CompletedTasksBrowserContract}). */
    TaskStoreFactory stores() {
        return stores;
    }

    @BeforeAll
    void startDashboard() throws Exception {
        stores = openStores();
        server = DashboardServer.start(stores, backend(), new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                AccessGuard.withToken(TOKEN, InetAddress.getLoopbackAddress()), List.of(), Duration.ofMillis(200));
        HeadlessChromium.driver();
    }

    @AfterAll
    void stopDashboard() {
        if (server != null) {
            server.close();
        }
        if (stores != null) {
            stores.close();
        }
        stopBackend();
    }

    @Test
    void the_overview_and_the_queue_page_show_what_the_store_reports() {
        QueueName queue = freshQueue();
        TaskStore store = stores.forQueue(queue);
        ConsumerId worker = ConsumerId.of("browser-worker-1");
        store.publish(List.of(newTask("first-ordered", Partition.ordered("account-9"), 10, Duration.ZERO, "{}"),
                newTask("second-ordered", Partition.ordered("account-9"), 10, Duration.ZERO, "{}")));
        store.heartbeat(worker, Duration.ofMinutes(5));
        List<TaskId> held = store.consume(worker, 2, Duration.ZERO).stream().map(Lease::id).toList();
        List<NewTask> more = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            more.add(newTask("mail-" + i, Partition.regular("emails"), 0, Duration.ZERO, "{}"));
        }
        for (int i = 0; i < 3; i++) {
            more.add(newTask("later-" + i, Partition.regular("reminders"), 0, Duration.ofHours(1), "{}"));
        }
        more.add(newTask("doomed", Partition.regular("webhooks"), 50, Duration.ZERO, "{}"));
        store.publish(more);
        ConsumerId failing = ConsumerId.of("browser-worker-2");
        store.heartbeat(failing, Duration.ofMinutes(5));
        List<Lease> taken = store.consume(failing, 1, Duration.ZERO);
        store.fail(failing, taken.stream().map(Lease::id).toList(), "gone for good");
        store.blockPartition(Partition.regular("emails"), Duration.ofMinutes(10));
        store.configure(store.settings().toBuilder().partitionConcurrency(3)
                .partitionConcurrencyOverrides(Map.of(Partition.regular("bulk"), 8))
                .queueRateLimit(new io.ordo.domain.RateLimit(100, Duration.ofSeconds(1), 200)).build());
        store.putSchedule(io.ordo.domain.Schedule.builder("nightly-report", Partition.ordered("reports"),
                "{}".getBytes(java.nio.charset.StandardCharsets.UTF_8))
                .cron("0 9 * * 1-5", java.time.ZoneId.of("Europe/Berlin")).build());
        QueueStats stats = store.stats();
        System.out.printf("%s: store reports ready %d, delayed %d, in flight %d, dead %d, locked %d, blocked %d%n",
                backend(), stats.ready(), stats.delayed(), stats.inFlight(), stats.dead(), stats.lockedPartitions(),
                stats.blockedPartitions());
        assertThat(held).hasSize(2);
        assertThat(stats.lockedPartitions()).isEqualTo(1);
        assertThat(stats.dead()).isEqualTo(1);

        open("/", false);
        String row = "tr[data-queue='" + queue + "'] ";
        assertCell(row + "td[data-field='ready']", stats.ready());
        assertCell(row + "td[data-field='delayed']", stats.delayed());
        assertCell(row + "td[data-field='inFlight']", stats.inFlight());
        assertCell(row + "td[data-field='dead']", stats.dead());
        assertThat(find(By.cssSelector(row + "td[data-field='paused']")).getText()).isEqualTo("running");

        click(By.cssSelector(row + "a"));
        await("the queue page", driver -> driver.getCurrentUrl().endsWith("/queues/" + queue));
        assertCell("div.card[data-field='ready'] .value", stats.ready());
        assertCell("div.card[data-field='delayed'] .value", stats.delayed());
        assertCell("div.card[data-field='inFlight'] .value", stats.inFlight());
        assertCell("div.card[data-field='dead'] .value", stats.dead());
        assertCell("div.card[data-field='lockedPartitions'] .value", stats.lockedPartitions());
        assertCell("div.card[data-field='blockedPartitions'] .value", stats.blockedPartitions());
        assertCell("div.card[data-field='deadLettersDroppedTotal'] .value", stats.deadLettersDroppedTotal());
        WebElement lock = find(By.cssSelector("#locks tr[data-partition='!account-9']"));
        assertThat(lock.getText()).contains("browser-worker-1", "ago");
        assertThat(find(By.cssSelector("#blocks tr[data-partition='emails']")).getText()).contains("in 9 min");
        assertThat(find(By.cssSelector("#consumers tr[data-consumer='browser-worker-1']")).getText()).contains("alive");
        assertThat(find(By.cssSelector("#partitions tr[data-partition='emails']")).getText()).contains("7");
        assertThat(find(By.cssSelector("#schedules tr[data-schedule='nightly-report']")).getText())
                .contains("cron 0 9 * * 1-5 (Europe/Berlin)", "!reports", "skip", "none yet");
        assertLimit("tr[data-limit='partitionConcurrency']", "Partition cap", "3 in flight");
        assertLimit("tr[data-limit='override'][data-partition='bulk']", "Cap of bulk", "8 in flight");
        assertLimit("tr[data-limit='queueConcurrency']", "Queue cap", "none");
        assertLimit("tr[data-limit='partitionRateLimit']", "Partition rate limit", "off");
        assertLimit("tr[data-limit='queueRateLimit']", "Queue rate limit", "100 per 1 s, burst 200");
        assertLimit("tr[data-limit='deadLetterMaxCount']", "Dead letters kept", "no cap");
        await("the throughput chart", driver -> !driver.findElements(By.cssSelector("#throughput svg polyline")).isEmpty());
    }

    @Test
    void the_task_lists_show_a_partition_the_delayed_and_the_tasks_in_flight_and_cancel_them() {
        QueueName queue = freshQueue();
        TaskStore store = stores.forQueue(queue);
        store.configure(store.settings().toBuilder().processingTimeout(Duration.ofMinutes(10)).build());
        Partition account = Partition.ordered("account-7");
        store.publish(List.of(newTask("tx-1", account, 0, Duration.ZERO, "{\"cents\":100}"),
                newTask("tx-2", account, 0, Duration.ZERO, "{\"cents\":200}"),
                newTask("tx-3", account, 0, Duration.ZERO, "{\"cents\":300}")));
        ConsumerId worker = ConsumerId.of("browser-worker-9");
        store.heartbeat(worker, Duration.ofMinutes(5));
        TaskId running = store.consume(worker, 1, Duration.ZERO).get(0).id();
        store.heartbeat(worker, Duration.ofMinutes(5), Map.of(running, new Progress(30, "3 of 10 pages")));
        store.publish(List.of(newTask("mail-1", Partition.regular("emails"), 0, Duration.ZERO, "{\"to\":\"<b>x</b>\"}"),
                newTask("mail-2", Partition.regular("emails"), 5, Duration.ZERO, "{}"),
                newTask("later-2", Partition.regular("reminders"), 0, Duration.ofHours(2), "{}"),
                newTask("later-1", Partition.regular("reminders"), 0, Duration.ofHours(1), "{}")));

        // the partition page, from the queue page's locks: its lock, head and tasks in the order it delivers them
        open("/queues/" + queue, false);
        click(By.cssSelector("#locks tr[data-partition='!account-7'] a.partition-link"));
        await("the partition page", driver -> driver.getCurrentUrl().contains("/partition?partition=%21account-7"));
        assertThat(find(By.id("partition-lock")).getText()).isEqualTo("held by browser-worker-9");
        assertThat(find(By.id("partition-head")).getText()).isEqualTo("tx-2");
        assertThat(rowIds("#partition-tasks")).containsExactly("tx-2", "tx-3");
        open("/queues/" + queue + "/partition?partition=emails", true);
        assertThat(rowIds("#partition-tasks")).as("priority first").containsExactly("mail-2", "mail-1");
        assertThat(find(By.cssSelector("#partition-tasks tr[data-id='mail-1'] td[data-field='payload']")).getText())
                .isEqualTo("{\"to\":\"<b>x</b>\"}");
        click(By.cssSelector("#partition-tasks button[aria-label='Cancel mail-1']"));
        click(By.id("confirm-ok"));
        await("the page to confirm the cancel", driver -> driver.findElement(By.id("notice")).getText().contains("mail-1: cancelled"));
        assertThat(store.get(TaskId.of("mail-1"))).isEmpty();
        assertThat(rowIds("#partition-tasks")).containsExactly("mail-2");

        // delayed, soonest due first; in flight with its holder and progress, cancelled: its worker is asked to stop
        click(By.id("tab-delayed"));
        await("the delayed tasks", driver -> driver.getCurrentUrl().endsWith("/queues/" + queue + "/delayed"));
        assertThat(rowIds("#delayed-tasks")).containsExactly("later-1", "later-2");
        assertThat(find(By.cssSelector("#delayed-tasks tr[data-id='later-1'] td[data-field='due']")).getText()).startsWith("in 59 min");
        click(By.id("tab-in-flight"));
        await("the tasks in flight", driver -> driver.getCurrentUrl().endsWith("/queues/" + queue + "/in-flight"));
        String row = "#in-flight-tasks tr[data-id='tx-1'] ";
        assertThat(find(By.cssSelector(row + "td[data-field='holder']")).getText()).isEqualTo("browser-worker-9");
        assertThat(find(By.cssSelector(row + "td[data-field='progress']")).getText()).isEqualTo("30% 3 of 10 pages");
        assertThat(find(By.cssSelector(row + "td[data-field='deadline']")).getText()).startsWith("in 9 min");
        click(By.cssSelector(row + "button[aria-label='Cancel tx-1']"));
        assertThat(find(By.id("confirm-message")).getText()).contains("worker is asked to stop");
        click(By.id("confirm-ok"));
        await("the page to confirm the request", driver -> driver.findElement(By.id("notice")).getText().contains("tx-1: cancel-requested"));
        assertThat(find(By.cssSelector(row + "td[data-field='cancel']")).getText()).isEqualTo("cancel requested");
        assertThat(store.get(running).orElseThrow().lease().orElseThrow().cancelRequested()).isTrue();

        // a queue that does not exist is said not to exist, not shown empty
        open("/queues/no-such-queue-" + UUID.randomUUID().toString().substring(0, 6) + "/delayed", false);
        assertThat(find(By.id("problem")).getText()).contains("does not exist");
    }

    @Test
    void a_page_of_25_tasks_fits_a_laptop_screen() {
        QueueName queue = freshQueue();
        TaskStore store = stores.forQueue(queue);
        List<NewTask> later = new ArrayList<>();
        for (int i = 1; i <= 30; i++) {
            later.add(newTask("later-" + i, Partition.regular("reminders"), 0, Duration.ofMinutes(i),
                    "{\"remind\":\"" + "x".repeat(300) + "\"}"));
        }
        store.publish(later);
        driver().manage().window().setSize(new org.openqa.selenium.Dimension(1366, 768));
        try {
            open("/queues/" + queue + "/delayed", true);
            assertThat(rowIds("#delayed-tasks")).hasSize(25);
            Number bottom = (Number) js().executeScript("return document.querySelector('#delayed-tasks tbody tr:last-child')"
                    + ".getBoundingClientRect().bottom");
            Number viewport = (Number) js().executeScript("return window.innerHeight");
            System.out.printf("%s: the 25th row ends at %s px of a %s px high page%n", backend(), bottom, viewport);
            assertThat(bottom.doubleValue()).as("the 25th row's bottom").isLessThanOrEqualTo(viewport.doubleValue());
        } finally {
            driver().manage().window().setSize(new org.openqa.selenium.Dimension(1366, 900));
        }
    }

    @Test
    void dead_letters_are_filtered_and_redriven_or_deleted_several_at_once() {
        QueueName queue = freshQueue();
        TaskStore store = stores.forQueue(queue);
        deadLetter(store, "pay-1", Partition.regular("payments"), "{}", "Timeout calling the bank");
        deadLetter(store, "pay-2", Partition.regular("payments"), "{}", "card declined");
        deadLetter(store, "pay-3", Partition.regular("payments"), "{}", "TIMEOUT again");
        deadLetter(store, "mail-9", Partition.regular("emails"), "{}", "timeout from the SMTP server");
        deadLetter(store, "mail-10", Partition.regular("emails"), "{}", "mailbox full");

        open("/queues/" + queue + "/dead-letters", true);
        find(By.id("filter-reason")).sendKeys("timeout");
        find(By.id("filter-partition")).sendKeys("payments", Keys.ENTER);
        await("the search", driver -> driver.getCurrentUrl().contains("reason=timeout"));
        assertThat(rowIds("#dead-letters")).containsExactly("pay-1", "pay-3");
        assertThat(find(By.id("search-position")).getText()).startsWith("2 found among 5 examined");
        click(By.id("select-all"));
        assertThat(find(By.id("redrive-selected")).getText()).isEqualTo("Redrive selected (2)");
        click(By.id("redrive-selected"));
        click(By.id("confirm-ok"));
        await("the page to confirm the redrive", driver -> driver.findElement(By.id("notice")).getText().contains("Redrove 2 dead letters"));
        assertThat(store.get(TaskId.of("pay-1")).orElseThrow().state()).isEqualTo(TaskState.PENDING);
        assertThat(store.get(TaskId.of("pay-3")).orElseThrow().state()).isEqualTo(TaskState.PENDING);

        click(By.id("filter-clear"));
        await("every dead letter", driver -> !driver.getCurrentUrl().contains("reason="));
        assertThat(rowIds("#dead-letters")).containsExactly("pay-2", "mail-9", "mail-10");
        click(By.cssSelector("#dead-letters input[aria-label='Select mail-9']"));
        click(By.cssSelector("#dead-letters input[aria-label='Select mail-10']"));
        click(By.id("delete-selected"));
        click(By.id("confirm-ok"));
        await("the page to confirm the deletion", driver -> driver.findElement(By.id("notice")).getText().contains("Deleted 2 dead letters"));
        assertThat(store.deadLetters(0, 10).items()).extracting(letter -> letter.id().value()).containsExactly("pay-2");
    }

    @Test
    void queues_named_dot_and_dot_dot_open_from_the_overview() {
        for (String name : List.of(".", "..")) {
            stores.forQueue(QueueName.of(name)).publish(List.of(newTask("odd-" + name.length(), Partition.regular("p"), 0,
                    Duration.ZERO, "{}")));
        }
        for (String name : List.of(".", "..")) {
            open("/", false);
            click(By.cssSelector("tr[data-queue='" + name + "'] a"));
            await("the queue page of '" + name + "'", driver -> driver.getCurrentUrl().endsWith("/queues/~" + name));
            assertCell("div.card[data-field='ready'] .value", 1);
            assertThat(find(By.cssSelector("#crumbs")).getText()).endsWith(name);
        }
    }

    @Test
    void a_dead_letter_redriven_from_the_page_is_back_in_its_partition() {
        QueueName queue = freshQueue();
        TaskStore store = stores.forQueue(queue);
        TaskId id = deadLetter(store, "invoice-17", Partition.regular("invoices"), "{\"invoice\":17}", "PDF renderer crashed");
        assertThat(store.get(id)).map(TaskSnapshot::state).contains(TaskState.DEAD);

        open("/queues/" + queue + "/dead-letters", true);
        WebElement row = find(By.cssSelector("tr[data-id='invoice-17']"));
        assertThat(row.getText()).contains("invoices", "PDF renderer crashed", "{\"invoice\":17}");
        row.findElement(By.cssSelector("button.redrive")).click();
        await("the page to confirm the redrive", driver -> driver.findElement(By.id("notice")).getText().contains("Redrove invoice-17"));
        find(By.xpath("//p[text()='No dead letters here.']"));

        TaskSnapshot back = store.get(id).orElseThrow();
        assertThat(back.state()).isEqualTo(TaskState.PENDING);
        assertThat(back.task().partition()).isEqualTo(Partition.regular("invoices"));
        assertThat(back.task().attempts()).isZero();
        assertThat(store.stats().dead()).isZero();
        List<Lease> again = store.consume(ConsumerId.of("after-redrive"), 1, Duration.ZERO);
        assertThat(again).extracting(Lease::id).containsExactly(id);
    }

    @Test
    void pause_resume_and_unblock_from_the_queue_page_reach_the_store() {
        QueueName queue = freshQueue();
        TaskStore store = stores.forQueue(queue);
        store.publish(List.of(newTask("report-1", Partition.regular("reports"), 0, Duration.ZERO, "{}")));
        store.blockPartition(Partition.regular("reports"), Duration.ofMinutes(10));

        open("/queues/" + queue, true);
        click(By.cssSelector("#blocks button[aria-label='Unblock reports']"));
        await("the page to confirm the unblock", driver -> driver.findElement(By.id("notice")).getText().contains("unblocked"));
        assertThat(store.inspect(10).blocks()).isEmpty();

        click(By.id("pause"));
        click(By.id("confirm-ok"));
        find(By.id("paused"));
        assertThat(store.stats().paused()).isTrue();
        click(By.id("resume"));
        await("the page to show the queue running", driver -> driver.findElements(By.id("paused")).isEmpty());
        assertThat(store.stats().paused()).isFalse();
    }

    @Test
    void consumer_groups_are_listed_created_opened_and_deleted_from_the_queue_page() {
        QueueName queue = freshQueue();
        TaskStore store = stores.forQueue(queue);
        store.publish(List.of(newTask("own-1", Partition.regular("orders"), 0, Duration.ZERO, "{}")));

        // the first group, from the page: a bad name is refused with the rule, a good one asks first (publishing changes)
        open("/queues/" + queue, true);
        assertThat(find(By.id("groups")).getText()).startsWith("No consumer groups");
        find(By.id("group-name")).sendKeys("bad name");
        click(By.id("create-group-button"));
        await("the page to refuse the name", driver -> driver.findElement(By.id("notice")).getText()
                .contains("group: may contain only letters, digits, '.', '_' and '-', was 'bad name'"));
        assertThat(store.groups()).isEmpty();
        WebElement name = find(By.id("group-name"));
        name.sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.BACK_SPACE);
        name.sendKeys("billing", Keys.ENTER);
        assertThat(find(By.id("confirm-message")).getText()).contains("publishing delivers to its groups only");
        click(By.id("confirm-ok"));
        await("the page to confirm the group", driver -> driver.findElement(By.id("notice")).getText()
                .contains("Group billing created"));
        assertThat(store.groups()).containsExactly(GroupName.of("billing"));
        find(By.cssSelector("#groups tr[data-group='billing']"));
        assertThat(find(By.id("group-name")).getAttribute("value")).isEmpty();

        // a second group, and tasks: every group gets each, and keeps its own state of it
        find(By.id("group-name")).sendKeys("mail");
        click(By.id("create-group-button"));
        await("the second group", driver -> driver.findElement(By.id("notice")).getText().contains("Group mail created"));
        assertThat(store.groups()).containsExactly(GroupName.of("billing"), GroupName.of("mail"));
        store.publish(List.of(newTask("inv-1", Partition.regular("invoices"), 0, Duration.ZERO, "{\"invoice\":1}"),
                newTask("inv-2", Partition.regular("invoices"), 0, Duration.ZERO, "{\"invoice\":2}"),
                newTask("inv-3", Partition.regular("invoices"), 0, Duration.ofHours(1), "{}")));
        TaskStore billing = stores.forGroup(queue, GroupName.of("billing"));
        ConsumerId worker = ConsumerId.of("billing-worker-1");
        billing.heartbeat(worker, Duration.ofMinutes(5));
        billing.fail(worker, billing.consume(worker, 1, Duration.ZERO).stream().map(Lease::id).toList(), "card declined");

        open("/queues/" + queue, true);
        String row = "#groups tr[data-group='billing'] ";
        assertCell(row + "td[data-field='ready']", 1);
        assertCell(row + "td[data-field='delayed']", 1);
        assertCell(row + "td[data-field='dead']", 1);
        assertCell(row + "td[data-field='consumers']", 1);
        assertCell("#groups tr[data-group='mail'] td[data-field='ready']", 2);
        assertCell("div.card[data-field='ready'] .value", 1); // the queue's own view: its task from before the groups

        // a group's page: the queue page's panels, for the group
        click(By.cssSelector(row + "a"));
        await("the group's page", driver -> driver.getCurrentUrl().endsWith("/queues/" + queue + "?group=billing"));
        assertThat(find(By.cssSelector("main h1")).getText()).startsWith("Group billing").contains("of queue " + queue);
        assertCell("div.card[data-field='ready'] .value", 1);
        assertCell("div.card[data-field='dead'] .value", 1);
        assertThat(find(By.cssSelector("#consumers tr[data-consumer='billing-worker-1']")).getText()).contains("alive");
        assertThat(find(By.cssSelector("#groups a[aria-current='page']")).getText()).isEqualTo("billing");
        assertThat(driver().findElements(By.id("throughput"))).isEmpty();
        click(By.id("pause"));
        click(By.id("confirm-ok"));
        find(By.id("paused"));
        assertThat(billing.stats().paused()).isTrue();
        assertThat(store.stats().paused()).isFalse();
        assertThat(stores.forGroup(queue, GroupName.of("mail")).stats().paused()).isFalse();
        click(By.id("dead-link"));
        await("the group's dead letters", driver -> driver.getCurrentUrl().endsWith("/dead-letters?group=billing"));
        assertThat(find(By.cssSelector("tr[data-id='inv-1']")).getText()).contains("card declined");
        click(By.cssSelector("tr[data-id='inv-1'] button.redrive"));
        await("the redrive in the group", driver -> driver.findElement(By.id("notice")).getText().contains("Redrove inv-1"));
        assertThat(billing.stats().dead()).isZero();

        // a group that does not exist is said to be unknown
        open("/queues/" + queue + "?group=nope", false);
        assertThat(find(By.id("problem")).getText()).contains("has no consumer group nope");

        // deleting a group asks for its name to be typed
        open("/queues/" + queue, true);
        click(By.cssSelector("#groups button[aria-label='Delete group mail']"));
        WebElement confirm = find(By.id("confirm-ok"));
        assertThat(confirm.isEnabled()).as("Confirm before the group's name is typed").isFalse();
        find(By.id("confirm-typed")).sendKeys("mail");
        confirm.click();
        await("the page to confirm the deletion", driver -> driver.findElement(By.id("notice")).getText()
                .contains("Group mail deleted"));
        await("the group to leave the list", driver -> driver.findElements(By.cssSelector("#groups tr[data-group='mail']")).isEmpty());
        assertThat(store.groups()).containsExactly(GroupName.of("billing"));
    }

    @Test
    void without_the_token_nothing_can_be_purged() {
        QueueName queue = freshQueue();
        TaskStore store = stores.forQueue(queue);
        deadLetter(store, "keep-1", Partition.regular("orders"), "{}", "boom");
        deadLetter(store, "keep-2", Partition.regular("orders"), "{}", "boom");

        open("/queues/" + queue + "/dead-letters", false);
        find(By.cssSelector("tr[data-id='keep-2']"));
        assertThat(find(By.id("purge-all")).isEnabled()).as("Purge all without the token").isFalse();
        assertThat(find(By.cssSelector("tr[data-id='keep-1'] button.delete")).isEnabled()).isFalse();
        assertThat(find(By.id("actions-state")).getText()).isEqualTo("read-only");

        String purgeAll = "/api/queues/" + queue + "/dead-letters/purge-all";
        Map<?, ?> withoutToken = post(purgeAll, null);
        Map<?, ?> wrongToken = post(purgeAll, "not-the-token-at-all");
        Map<?, ?> oneWithoutToken = post("/api/queues/" + queue + "/dead-letters/purge", null);
        System.out.printf("%s: purge without token -> %s, with a wrong token -> %s%n", backend(),
                withoutToken.get("status"), wrongToken.get("status"));
        assertThat(withoutToken.get("status")).isEqualTo(401L);
        assertThat(String.valueOf(withoutToken.get("body"))).contains("X-Ordo-Token");
        assertThat(wrongToken.get("status")).isEqualTo(403L);
        assertThat(oneWithoutToken.get("status")).isEqualTo(401L);
        assertThat(store.stats().dead()).isEqualTo(2);
        assertThat(store.deadLetters(0, 10).items()).hasSize(2);

        // the same page with the token purges, after the operator types the queue's name
        open("/queues/" + queue + "/dead-letters", true);
        find(By.cssSelector("tr[data-id='keep-2']"));
        find(By.id("purge-all")).click();
        WebElement confirm = find(By.id("confirm-ok"));
        assertThat(confirm.isEnabled()).as("Confirm before the queue's name is typed").isFalse();
        find(By.id("confirm-typed")).sendKeys(queue.value());
        confirm.click();
        await("the page to confirm the purge", driver -> driver.findElement(By.id("notice")).getText().contains("Purged 2"));
        assertThat(store.stats().dead()).isZero();
    }

    @Test
    void payloads_and_reasons_are_shown_as_text() {
        QueueName queue = freshQueue();
        TaskStore store = stores.forQueue(queue);
        String hostile = "<script>window.ordoInjected = 1</script><img src=x onerror=\"window.ordoInjected = 2\">";
        deadLetter(store, "hostile", Partition.regular("html"), hostile, "<b>bold?</b><script>window.ordoInjected = 3</script>");
        String longPayload = "{\"data\":\"" + "x".repeat(600) + "\"}";
        deadLetter(store, "long", Partition.regular("html"), longPayload, "too long");

        open("/queues/" + queue + "/dead-letters", false);
        WebElement payload = find(By.cssSelector("tr[data-id='hostile'] td[data-field='payload'] pre"));
        assertThat(payload.getText()).isEqualTo(hostile);
        assertThat(find(By.cssSelector("tr[data-id='hostile'] td.reason pre")).getText())
                .isEqualTo("<b>bold?</b><script>window.ordoInjected = 3</script>");
        WebElement cut = find(By.cssSelector("tr[data-id='long'] td[data-field='payload'] pre"));
        assertThat(cut.getText()).hasSize(TaskJson.PREVIEW_CHARS_IN_LIST).isEqualTo(longPayload.substring(0, 200));
        assertThat(find(By.cssSelector("tr[data-id='long'] td[data-field='payload'] .cut")).getText())
                .isEqualTo("cut (" + longPayload.length() + " bytes in all)");

        open("/queues/" + queue + "/task?id=hostile", false);
        assertThat(find(By.id("task-payload")).getText()).isEqualTo(hostile);
        assertThat(find(By.id("task-last-error")).getText()).isEqualTo("<b>bold?</b><script>window.ordoInjected = 3</script>");
        assertThat(driver().findElements(By.cssSelector("main script, main img, main b"))).isEmpty();
        assertThat(js().executeScript("return typeof window.ordoInjected")).isEqualTo("undefined");
    }

    @Test
    void the_pages_work_from_the_keyboard() {
        QueueName queue = freshQueue();
        TaskStore store = stores.forQueue(queue);
        deadLetter(store, "kbd-1", Partition.regular("keys"), "{\"k\":1}", "no mouse");

        open("/queues/" + queue, false);
        WebElement deadLink = find(By.id("dead-link"));
        js().executeScript("arguments[0].focus()", deadLink);
        new Actions(driver()).sendKeys("r").perform();
        await("r to draw the page afresh", ExpectedConditions.stalenessOf(deadLink));
        assertThat(driver().switchTo().activeElement().getAttribute("id")).as("focus kept across a refresh").isEqualTo("dead-link");
        new Actions(driver()).sendKeys(Keys.ENTER).perform();
        await("Enter on the link to open the dead letters", driver -> driver.getCurrentUrl().endsWith("/dead-letters"));
        driver().navigate().back();
        find(By.id("dead-link"));
        new Actions(driver()).sendKeys("d").perform();
        await("d to open the dead letters", driver -> driver.getCurrentUrl().endsWith("/queues/" + queue + "/dead-letters"));
        find(By.cssSelector("tr[data-id='kbd-1']"));
        new Actions(driver()).sendKeys("/").perform();
        WebElement id = driver().switchTo().activeElement();
        assertThat(id.getAttribute("id")).isEqualTo("find-id");
        id.sendKeys("kbd-1", Keys.ENTER);
        await("Enter to open the task", driver -> driver.getCurrentUrl().contains("/task?id=kbd-1"));
        assertThat(find(By.cssSelector("#task-fields")).getText()).contains("dead", "keys");
        new Actions(driver()).sendKeys("o").perform();
        await("o to open the overview", driver -> driver.getCurrentUrl().matches("http://[^/]+/"));
        find(By.cssSelector("tr[data-queue='" + queue + "']"));
    }

    // ---- helpers ----------------------------------------------------------------------------

    QueueName freshQueue() {
        return QueueName.of("dash-" + UUID.randomUUID().toString().substring(0, 8));
    }

    static NewTask newTask(String id, Partition partition, int priority, Duration delay, String payload) {
        return new NewTask(TaskId.of(id), partition, Priority.of(priority), payload.getBytes(UTF_8), delay, Map.of());
    }

    /** Publishes a task and fails it at once: a dead letter with that reason. */
    private static TaskId deadLetter(TaskStore store, String id, Partition partition, String payload, String reason) {
        store.publish(List.of(newTask(id, partition, Priority.MAX, Duration.ZERO, payload)));
        ConsumerId consumer = ConsumerId.of("dead-letter-maker");
        List<Lease> leases = store.consume(consumer, 1, Duration.ZERO);
        assertThat(leases).extracting(Lease::id).containsExactly(TaskId.of(id));
        store.fail(consumer, List.of(TaskId.of(id)), reason);
        return TaskId.of(id);
    }

    /** Loads a page with or without the token in this tab's session storage. */
    void open(String path, boolean withToken) {
        WebDriver driver = driver();
        // session storage belongs to the origin: set it on a cheap page of the dashboard, then load the real one
        driver.get(server.url() + "static/favicon.svg");
        if (withToken) {
            js().executeScript("sessionStorage.setItem(arguments[0], arguments[1])", TOKEN_KEY, TOKEN);
        } else {
            js().executeScript("sessionStorage.clear()");
        }
        driver.get(server.url() + path.substring(1));
        find(By.cssSelector("main h1"));
    }

    /** A POST from the dashboard's own page, as its script would send it; the status and the JSON body. */
    private Map<?, ?> post(String path, String token) {
        Object result = js().executeAsyncScript("""
                const done = arguments[arguments.length - 1];
                const headers = {'Content-Type': 'application/json'};
                if (arguments[1]) headers['X-Ordo-Token'] = arguments[1];
                fetch(arguments[0], {method: 'POST', headers, body: JSON.stringify({ids: ['keep-1']})})
                  .then(r => r.json().then(body => done({status: r.status, body: JSON.stringify(body)})))
                  .catch(e => done({status: -1, body: String(e)}));
                """, path, token);
        return (Map<?, ?>) result;
    }

    /** The task ids of a list's rows, top to bottom. */
    static List<String> rowIds(String table) {
        find(By.cssSelector(table));
        return driver().findElements(By.cssSelector(table + " tbody tr")).stream()
                .map(row -> row.getAttribute("data-id")).toList();
    }

    /** A row of the caps and rate limits panel: its heading and its value. */
    private void assertLimit(String row, String label, String value) {
        WebElement found = find(By.cssSelector("#limits " + row));
        assertThat(found.findElement(By.tagName("th")).getText()).isEqualTo(label);
        assertThat(found.findElement(By.tagName("td")).getText()).isEqualTo(value);
    }

    private void assertCell(String css, long expected) {
        String text = Long.toString(expected);
        await(css + " to show " + text, driver -> {
            List<WebElement> cells = driver.findElements(By.cssSelector(css));
            return !cells.isEmpty() && cells.get(0).getText().replace(",", "").equals(text);
        });
    }

    private static WebDriver driver() {
        return HeadlessChromium.driver();
    }

    private static JavascriptExecutor js() {
        return (JavascriptExecutor) driver();
    }
}
