#!/usr/bin/python3
"""The phone page in headless Chromium (Debian's chromium and python3-selenium), for
bench/web. Debian's python3 on purpose: selenium is its package.

    web-browser.py title URL CONTROL_SOCKET COUNT
    web-browser.py load URL RUNS

title: opens the page, then sends `next` COUNT times on the control socket and prints
the ms from the command's OK (and from its sending) to the page's #title text changing (a MutationObserver
stamps the change in the page, on the same wall clock as this script).
load: RUNS cold loads (a new profile each), each printed as one JSON line: `load_ms`
(performance.timing loadEventEnd - navigationStart) and every file fetched with its
transferSize (headers and body as they crossed the network) and encodedBodySize.
"""
import json, socket, sys, tempfile, time
from selenium import webdriver
from selenium.webdriver.chrome.service import Service


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                 "--disable-background-networking", "--disable-extensions", "--no-first-run",
                 "--window-size=412,915", "--user-data-dir=" + tempfile.mkdtemp(prefix="jukebox-web-bench-")):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def until(what, seconds=10):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        value = what()
        if value:
            return value
        time.sleep(0.01)
    return None


mode, url = sys.argv[1], sys.argv[2]
driver = browser()
try:
    if mode == "title":
        control, count = sys.argv[3], int(sys.argv[4])
        driver.get(url)
        title = lambda: driver.execute_script("return document.getElementById('title').textContent")
        if not until(title):
            sys.exit("the page never showed a title")
        driver.execute_script("""
            window.changes = [];
            const title = document.getElementById('title');
            new MutationObserver(() => window.changes.push([performance.timeOrigin + performance.now(), title.textContent]))
                .observe(title, {childList: true, characterData: true, subtree: true});""")
        s = socket.socket(socket.AF_UNIX)
        s.connect(control)
        s.recv(1024)
        for _ in range(count):
            before = title()
            seen = len(driver.execute_script("return window.changes"))
            sent = time.time() * 1000
            s.sendall(b"next\n")
            answer = b""
            while not answer.endswith(b"OK\n"):
                answer += s.recv(1024)
            ok = time.time() * 1000
            change = until(lambda: next((t for t, text in driver.execute_script("return window.changes")[seen:]
                                         if text and text != before), None), 5)
            print("%.3f %.3f" % (change - ok, change - sent) if change else "lost", flush=True)
            time.sleep(0.15)
    else:
        for _ in range(int(sys.argv[3])):
            if driver is None:
                driver = browser()
            driver.get(url)  # returns after the load event
            until(lambda: driver.execute_script("return performance.timing.loadEventEnd > 0"))
            time.sleep(2)  # the cover and the lyrics follow the first status
            load_ms = driver.execute_script("return performance.timing.loadEventEnd - performance.timing.navigationStart")
            files = driver.execute_script("""
                return performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'))
                    .map(e => [new URL(e.name).pathname + new URL(e.name).search, e.transferSize, e.encodedBodySize, e.responseEnd]);""")
            print(json.dumps({"load_ms": load_ms, "files": files}), flush=True)
            driver.quit()
            driver = None
finally:
    if driver is not None:
        driver.quit()
