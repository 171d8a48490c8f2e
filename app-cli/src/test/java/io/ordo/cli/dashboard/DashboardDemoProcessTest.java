package io.ordo.cli.dashboard;

import io.ordo.dashboard.HeadlessChromium;
import io.ordo.systemtest.OrdoProcess;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebDriver;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import static io.ordo.dashboard.HeadlessChromium.await;
import static io.ordo.dashboard.HeadlessChromium.click;
import static io.ordo.dashboard.HeadlessChromium.find;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's one command, {@code ordo dashboard --demo}, as a new user runs it: the printed link
 * opens the dashboard with actions unlocked, the demo queue shows every kind of state, and consumer
 * groups created from the queue page receive the demo's new tasks. The test takes the screenshots of
 * the overview, the queue, the dead letters, the task lists (completed ones too) and a consumer group: into target/ on every run, and into
 * docs/images/ when run with {@code -Dordo.screenshots=update}.
 */
@Tag("full")
class DashboardDemoProcessTest {
    private static final String UNLOCKED_LINK = "ordo: open with the token: ";
    private static final Path SHOTS = Path.of("target", "dashboard-screenshots");
    private static final Path DOCS_IMAGES = Path.of("..", "docs", "images");

    @Test
    void the_demo_dashboard_starts_in_one_command_and_shows_the_demo_queue() throws IOException {
        WebDriver driver = HeadlessChromium.driver();
        long started = System.nanoTime();
        OrdoProcess dashboard = OrdoProcess.start("dashboard", "--demo", "--listen", "127.0.0.1:0",
                "--sample-every", "500ms");
        try (dashboard) {
            String link = dashboard.awaitErr("the link with the token", line -> line.startsWith(UNLOCKED_LINK))
                    .substring(UNLOCKED_LINK.length());
            System.out.printf("ordo dashboard --demo served in %d ms%n", (System.nanoTime() - started) / 1_000_000);
            assertThat(link).matches("http://127\\.0\\.0\\.1:\\d+/#token=[A-Za-z0-9_-]{43}");
            String token = link.substring(link.indexOf('=') + 1);
            assertThat(dashboard.err()).filteredOn(line -> line.contains(token))
                    .as("the token is printed once, and once in the link, on stderr").hasSize(2);
            assertThat(dashboard.out()).as("stdout, where logs collect, never has the token")
                    .noneMatch(line -> line.contains(token)).anyMatch(line -> line.startsWith("dashboard: http://127.0.0.1:"));

            driver.manage().window().setSize(new Dimension(1280, 800));
            driver.get(link);
            find(By.cssSelector("tr[data-queue='demo'] td[data-field='ready']"));
            assertThat(driver.getCurrentUrl()).as("the token leaves the address bar").doesNotContain("token");
            assertThat(find(By.id("actions-state")).getText()).isEqualTo("actions unlocked");
            assertThat(Long.parseLong(find(By.cssSelector("tr[data-queue='demo'] td[data-field='dead']")).getText()))
                    .isGreaterThanOrEqualTo(4);
            // let the chart gather a few seconds of readings, then draw the page afresh
            OrdoProcess.pause(4000);
            driver.navigate().refresh();
            await("a throughput line", d -> d.findElements(By.cssSelector("#throughput polyline.acked")).size() == 1);
            find(By.cssSelector("tr[data-queue='demo'] td[data-field='ready']"));
            shoot("dashboard-overview.png");

            driver.manage().window().setSize(new Dimension(1280, 1240));
            driver.get(link.substring(0, link.indexOf('#')) + "queues/demo");
            assertThat(find(By.cssSelector("#locks tr[data-partition='!account-42']")).getText()).contains("billing-worker-7");
            assertThat(find(By.cssSelector("#blocks tr[data-partition='thumbnails']")).getText()).contains("Unblock");
            assertThat(find(By.cssSelector("#consumers tr[data-consumer='demo-worker-1']")).getText()).contains("alive");
            shoot("dashboard-queue.png");
            driver.manage().window().setSize(new Dimension(1280, 800));

            driver.get(link.substring(0, link.indexOf('#')) + "queues/demo/dead-letters");
            assertThat(find(By.cssSelector("tr[data-id='import-77'] td[data-field='payload'] pre")).getText())
                    .startsWith("{\"note\":\"<script>alert('not run: shown as text')</script>\"");
            shoot("dashboard-dead-letters.png");

            // the task lists, at a laptop's 1366x768: a page of 25 rows fits
            String base = link.substring(0, link.indexOf('#'));
            driver.manage().window().setSize(new Dimension(1366, 768));
            driver.get(base + "queues/demo/partition?partition=" + java.net.URLEncoder.encode("!account-42", java.nio.charset.StandardCharsets.UTF_8));
            assertThat(find(By.id("partition-lock")).getText()).contains("billing-worker-7");
            find(By.cssSelector("#partition-tasks tr[data-id]"));
            shoot("dashboard-partition.png");
            driver.get(base + "queues/demo/delayed");
            find(By.cssSelector("#delayed-tasks tr[data-id^='reminder-']"));
            shoot("dashboard-delayed.png");
            driver.get(base + "queues/demo/in-flight");
            assertThat(find(By.cssSelector("#in-flight-tasks")).getText()).contains("billing-worker-7");
            shoot("dashboard-in-flight.png");
            driver.get(base + "queues/demo/completed");
            assertThat(find(By.id("results-kept")).getText()).startsWith("Kept 1 h 0 min");
            find(By.cssSelector("#completed-tasks tr[data-id]"));
            shoot("dashboard-completed.png");
            driver.get(base + "queues/demo/dead-letters");
            find(By.id("filter-reason")).sendKeys("HTTP 503", Keys.ENTER);
            await("the search", d -> d.getCurrentUrl().contains("reason=HTTP+503"));
            find(By.cssSelector("tr[data-id='hook-1001']"));
            click(By.id("select-all"));
            shoot("dashboard-dead-letter-search.png");

            // consumer groups from the queue page: the first one asks first (publishing goes to the groups from then on)
            driver.get(link.substring(0, link.indexOf('#')) + "queues/demo");
            find(By.id("group-name")).sendKeys("billing", Keys.ENTER);
            click(By.id("confirm-ok"));
            await("the first group", d -> d.findElement(By.id("notice")).getText().contains("Group billing created"));
            find(By.id("group-name")).sendKeys("notifications", Keys.ENTER);
            await("the second group", d -> d.findElement(By.id("notice")).getText().contains("Group notifications created"));
            // the demo's trickle (a few tasks a second) now reaches both groups
            OrdoProcess.pause(4000);
            driver.navigate().refresh();
            assertThat(Long.parseLong(find(By.cssSelector("#groups tr[data-group='notifications'] td[data-field='ready']"))
                    .getText().replace(",", ""))).isPositive();
            click(By.cssSelector("#groups tr[data-group='billing'] a"));
            await("the group's page", d -> d.getCurrentUrl().endsWith("/queues/demo?group=billing"));
            assertThat(Long.parseLong(find(By.cssSelector("div.card[data-field='publishedTotal'] .value")).getText()
                    .replace(",", ""))).isPositive();
            find(By.cssSelector("#groups a[aria-current='page']"));
            driver.manage().window().setSize(new Dimension(1280, 1000));
            shoot("dashboard-group.png");
            driver.manage().window().setSize(new Dimension(1280, 800));

            dashboard.terminate();
            assertThat(dashboard.awaitExit()).as("stopped by SIGTERM").isEqualTo(143);
        } catch (RuntimeException | AssertionError failed) {
            System.out.println("ordo dashboard --demo printed: " + String.join("\n", dashboard.err()));
            throw failed;
        } finally {
            driver.manage().window().setSize(new Dimension(1366, 900));
        }
    }

    /** Into target/ always; into docs/images/ only when asked, so an ordinary run leaves the work tree as it was. */
    private static void shoot(String name) throws IOException {
        Path file = SHOTS.resolve(name);
        HeadlessChromium.screenshot(file);
        System.out.printf("screenshot %s (%d bytes)%n", file, Files.size(file));
        if ("update".equals(System.getProperty("ordo.screenshots"))) {
            Files.createDirectories(DOCS_IMAGES);
            Files.copy(file, DOCS_IMAGES.resolve(name), StandardCopyOption.REPLACE_EXISTING);
            System.out.printf("screenshot copied to %s%n", DOCS_IMAGES.resolve(name).normalize());
        }
    }
}
