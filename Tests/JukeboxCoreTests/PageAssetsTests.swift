import Testing
@testable import JukeboxCore

/// The phone page ships inside the daemon: it must stay small, reach no other site (the
/// box is often offline) and run under the server's Content-Security-Policy, which
/// allows no inline script, no inline style and no `on...=` handler.
@Suite struct PageAssetsTests {
    static let assets = [("html", PageAssets.html), ("script", PageAssets.script), ("style", PageAssets.style)]

    /// The ids PageHTML.swift documents for tests that drive the page.
    static let documentedIDs = [
        "box-name", "conn", "trouble", "message",
        "login", "login-form", "login-password", "login-submit", "login-error",
        "tab-now", "tab-library", "tab-queue", "tab-upload", "tab-cards", "tab-settings",
        "view-now", "view-library", "view-queue", "view-upload", "view-cards", "view-settings",
        "cover", "cover-none", "title", "artist", "album", "queue-place",
        "lyrics", "lyric-prev", "lyric-current", "lyric-next", "lyrics-plain",
        "seek", "elapsed", "remaining", "previous", "play-pause", "next",
        "volume", "volume-value", "repeat", "random", "single", "consume",
        "speed", "speed-value", "speed-reset", "sleep", "sleep-left", "keylock",
        "search-form", "search-input", "search-submit", "lib-folders", "lib-artists",
        "lib-albums", "lib-up", "lib-path", "artist-tag-box", "artist-tag", "library-list",
        "queue-count", "queue-clear", "queue-list",
        "drop-zone", "upload-input", "upload-folder-input", "upload-summary", "upload-clear", "upload-list",
        "card-unknown", "card-folder", "card-browse", "card-browser", "card-browser-up",
        "card-browser-path", "card-browser-choose", "card-browser-list", "card-link",
        "cards-refresh", "card-message", "cards-list",
        "config-path", "config-gutter", "config-text", "config-save", "config-revert",
        "config-status", "config-errors", "logout",
    ]

    static func occurrences(of needle: String, in text: String) -> Int {
        text.ranges(of: needle).count
    }

    @Test func theFirstViewFitsTheBudget() {
        let sizes = Self.assets.map { $0.1.utf8.count }
        for (name, text) in Self.assets { #expect(!text.isEmpty, "\(name) is empty") }
        let total = sizes.reduce(0, +)
        // 60 KiB is the aim for a phone on a weak Wi-Fi link; 150 kB is the hard cap.
        #expect(total <= 60 * 1024, "html + script + style weigh \(total) bytes")
        #expect(total <= 150_000)
    }

    @Test func nothingPointsOutsideTheBox() {
        for (name, text) in Self.assets {
            let lower = text.lowercased()
            #expect(!lower.contains("http://"), "\(name) names an http:// URL")
            #expect(!lower.contains("https://"), "\(name) names an https:// URL")
            #expect(!lower.contains("@import"), "\(name) imports another file")
            #expect(!lower.contains("url("), "\(name) loads a resource from CSS")
        }
        // Every src and href is the box's own path, a fragment or a data: URL, never `//host`.
        for match in PageAssets.html.matches(of: #/(?:src|href)="([^"]*)"/#) {
            let target = String(match.output.1)
            let own = (target.hasPrefix("/") && !target.hasPrefix("//")) || target.hasPrefix("#") || target.hasPrefix("data:")
            #expect(own, "the page links to \(target)")
        }
        #expect(PageAssets.html.contains(#"<script src="/page.js" defer></script>"#))
        #expect(PageAssets.html.contains(#"<link rel="stylesheet" href="/page.css">"#))
    }

    @Test func theMarkupRunsUnderTheContentSecurityPolicy() {
        let html = PageAssets.html.lowercased()
        #expect(!html.contains("<style"), "inline <style> element")
        #expect(html.firstMatch(of: #/\sstyle\s*=/#) == nil, "inline style= attribute")
        #expect(html.firstMatch(of: #/\son[a-z]+\s*=/#) == nil, "inline on...= handler")
        #expect(!html.contains("javascript:"))
        // Each <script> loads a file and has no body.
        let scripts = html.matches(of: #/<script([^>]*)>([^<]*)</script>/#)
        #expect(scripts.count == Self.occurrences(of: "<script", in: html))
        for match in scripts {
            #expect(match.output.1.contains("src="), "a <script> without src")
            let bodyIsBlank = match.output.2.allSatisfy { $0.isWhitespace }
            #expect(bodyIsBlank, "a <script> with an inline body")
        }
        let script = PageAssets.script
        for banned in ["eval(", "new Function", "innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "setAttribute('style'", "cssText", "javascript:"] {
            #expect(!script.contains(banned), "the script uses \(banned)")
        }
    }

    @Test func theDocumentedIDsAreThereOnce() {
        for id in Self.documentedIDs {
            #expect(Self.occurrences(of: #"id="\#(id)""#, in: PageAssets.html) == 1, "id \(id)")
        }
        // Every element the script looks up by a literal id exists.
        for match in PageAssets.script.matches(of: #/\$\('([a-z0-9-]+)'\)/#) {
            let id = String(match.output.1)
            #expect(Self.occurrences(of: #"id="\#(id)""#, in: PageAssets.html) == 1, "the script looks up \(id)")
        }
    }

    @Test func thePageIsMadeForAPhone() {
        let html = PageAssets.html
        #expect(html.contains(#"<meta name="viewport" content="width=device-width,initial-scale=1">"#))
        #expect(html.contains(#"<html lang="#))
        #expect(PageAssets.style.contains("prefers-color-scheme: dark"))
        // Icon-only buttons carry a label a screen reader can say.
        for match in html.matches(of: #/<button([^>]*)><svg/#) where !match.output.1.contains(#"role="tab""#) {
            #expect(match.output.1.contains("aria-label="), "an icon button without a label: \(match.output.1)")
        }
    }
}
