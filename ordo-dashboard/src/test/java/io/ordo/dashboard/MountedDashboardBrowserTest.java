package io.ordo.dashboard;

import com.google.inject.Guice;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.Priority;
import io.ordo.domain.QueueName;
import io.ordo.domain.TaskId;
import io.ordo.inmemory.InMemoryQueueModule;
import io.ordo.ports.Clock;
import io.ordo.ports.TaskStoreFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ContextHandler;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.ordo.dashboard.HeadlessChromium.await;
import static io.ordo.dashboard.HeadlessChromium.click;
import static io.ordo.dashboard.HeadlessChromium.find;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

/** The dashboard mounted under a path in a service's own Jetty: its page, links, files and API calls all stay under that path. */
@Tag("full")
class MountedDashboardBrowserTest {
    private static final String TOKEN = "mounted-token-0123456789abcdef";

    @Test
    void mounted_under_a_path_the_page_draws_and_its_links_stay_under_it() throws Exception {
        TaskStoreFactory stores = Guice.createInjector(new InMemoryQueueModule(Clock.system())).getInstance(TaskStoreFactory.class);
        stores.forQueue(QueueName.of("mounted")).publish(List.of(new NewTask(TaskId.of("m-1"), Partition.regular("p"),
                Priority.DEFAULT, "{}".getBytes(UTF_8), Duration.ZERO, Map.of())));
        InetAddress loopback = InetAddress.getLoopbackAddress();
        Server server = new Server(new InetSocketAddress(loopback, 0));
        DashboardHandler dashboard = DashboardHandler.create(stores, "inmemory", AccessGuard.withToken(TOKEN, loopback),
                List.of(), Duration.ofSeconds(1));
        server.setHandler(new ContextHandler(dashboard, "/ops/ordo"));
        server.start();
        try {
            int port = ((ServerConnector) server.getConnectors()[0]).getLocalPort();
            String root = "http://127.0.0.1:" + port + "/ops/ordo";
            assertThat(RawHttp.get(port, "/queues/mounted", ""))
                    .as("nothing outside the mount path").startsWith("HTTP/1.1 404");
            WebDriver driver = HeadlessChromium.driver();
            driver.get(root + "/static/favicon.svg");
            ((JavascriptExecutor) driver).executeScript("sessionStorage.clear()");

            driver.get(root + "/");
            await("the queue row", d -> !d.findElements(By.cssSelector("tr[data-queue='mounted'] td[data-field='ready']")).isEmpty());
            assertThat(find(By.cssSelector("tr[data-queue='mounted'] td[data-field='ready']")).getText()).isEqualTo("1");

            click(By.cssSelector("tr[data-queue='mounted'] a"));
            await("the queue page", d -> d.getCurrentUrl().equals(root + "/queues/mounted"));
            assertThat(find(By.cssSelector("div.card[data-field='ready'] .value")).getText()).isEqualTo("1");
            click(By.cssSelector("a.brand"));
            await("the overview again", d -> d.getCurrentUrl().equals(root + "/"));
            find(By.cssSelector("tr[data-queue='mounted']"));
        } finally {
            server.stop();
            stores.close();
        }
    }
}
