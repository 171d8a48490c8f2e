package io.ordo.dashboard;

import org.openqa.selenium.By;
import org.openqa.selenium.NoSuchElementException;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Function;

/**
 * Debian's {@code chromium}, headless, driven by its {@code chromedriver} (both installed by
 * scripts/test). The paths are given explicitly so Selenium never looks for a driver on the
 * network. One browser serves every dashboard test of the run; a missing browser fails the test
 * with what to install, never skips it.
 */
public final class HeadlessChromium {
    public static final Path BROWSER = Path.of(System.getProperty("ordo.chromium", "/usr/bin/chromium"));
    public static final Path DRIVER = Path.of(System.getProperty("ordo.chromedriver", "/usr/bin/chromedriver"));
    public static final Duration WAIT = Duration.ofSeconds(10);

    private static WebDriver shared;

    private HeadlessChromium() {
    }

    /** The run's browser, started on first use and quit when the JVM ends. */
    public static synchronized WebDriver driver() {
        if (shared == null) {
            // the fast tier runs where chromium may not be installed (scripts/test --fast installs none)
            if ("fast".equals(System.getProperty("ordo.test.tier"))) {
                throw new IllegalStateException("a browser test ran in the fast tier: tag its class @Tag(\"full\")"
                        + " (docs/testing.md, \"Test tiers\")");
            }
            if (!Files.isExecutable(BROWSER) || !Files.isExecutable(DRIVER)) {
                throw new IllegalStateException("the dashboard's browser tests need " + BROWSER + " and " + DRIVER
                        + ": install Debian's chromium and chromium-driver (scripts/test does: apt-get install -y chromium chromium-driver)");
            }
            long started = System.nanoTime();
            ChromeOptions options = new ChromeOptions();
            options.setBinary(BROWSER.toFile());
            options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                    "--window-size=1366,900", "--hide-scrollbars", "--force-device-scale-factor=1", "--lang=en-US",
                    "--no-first-run", "--disable-extensions", "--disable-background-networking");
            ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(DRIVER.toFile())
                    .usingAnyFreePort().build();
            WebDriver driver = new ChromeDriver(service, options);
            driver.manage().timeouts().scriptTimeout(WAIT);
            Runtime.getRuntime().addShutdownHook(new Thread(driver::quit, "chromium-quit"));
            System.out.printf("headless chromium started in %d ms%n", (System.nanoTime() - started) / 1_000_000);
            shared = driver;
        }
        return shared;
    }

    public static <T> T await(String what, Function<WebDriver, T> condition) {
        return new WebDriverWait(driver(), WAIT).withMessage(() -> what + "; the page at " + driver().getCurrentUrl()
                + " shows: " + pageText()).until(condition);
    }

    private static String pageText() {
        try {
            return driver().findElement(By.tagName("body")).getText();
        } catch (RuntimeException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }

    /** The element once it is on the page. */
    public static WebElement find(By by) {
        return await("the page to show " + by, driver -> {
            var found = driver.findElements(by);
            return found.isEmpty() ? null : found.get(0);
        });
    }

    /** Clicks the element, found afresh if the page was redrawn (the overview and queue pages refresh by themselves). */
    public static void click(By by) {
        await("to click " + by, driver -> {
            try {
                driver.findElement(by).click();
                return true;
            } catch (NoSuchElementException | StaleElementReferenceException redrawn) {
                return null;
            }
        });
    }

    /** Saves what the browser shows now, as a PNG. */
    public static void screenshot(Path file) {
        byte[] png = ((TakesScreenshot) driver()).getScreenshotAs(OutputType.BYTES);
        try {
            Files.createDirectories(file.getParent());
            Files.write(file, png);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
