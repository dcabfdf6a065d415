import Testing
@testable import JukeboxCore

/// The page's files are asked about again on every open (`no-cache`); the ETag lets a
/// phone that has this version keep it (304), and a new binary's page replaces it.
@Suite struct PageFileTests {
    @Test func aPhoneWithThisVersionGetsNoBodyAndAnyOtherGetsTheFile() {
        let file = PageFile.html
        let fresh = file.reply(ifNoneMatch: nil)
        #expect(fresh.status == .ok)
        #expect(fresh.headers[.eTag] == file.etag)
        #expect(fresh.headers[.cacheControl] == "no-cache")
        #expect(fresh.headers[.contentType] == "text/html; charset=utf-8")
        #expect(fresh.headers[.contentSecurityPolicy] != nil)

        let kept = file.reply(ifNoneMatch: file.etag)
        #expect(kept.status == .notModified)
        #expect(kept.headers[.eTag] == file.etag)
        #expect(kept.headers[.contentType] == nil)

        #expect(file.reply(ifNoneMatch: "\"0\"").status == .ok)
        #expect(file.reply(ifNoneMatch: "").status == .ok)
    }

    @Test func ifNoneMatchIsAListComparedWeakly() {
        let etag = "\"5a1f\""
        #expect(PageFile.matches("\"5a1f\"", etag))
        #expect(PageFile.matches("W/\"5a1f\"", etag))
        #expect(PageFile.matches("\"0\", \"5a1f\"", etag))
        #expect(PageFile.matches(" \"0\" ,\t\"5a1f\" ", etag))
        #expect(PageFile.matches("*", etag))
        #expect(!PageFile.matches("\"5a1\"", etag))
        #expect(!PageFile.matches("5a1f", etag))
        #expect(!PageFile.matches("", etag))
    }

    @Test func theTagFollowsTheBytes() {
        let a = PageFile("body { color: red }", type: "text/css")
        let b = PageFile("body { color: blue }", type: "text/css")
        #expect(a.etag != b.etag)
        #expect(a.etag == PageFile("body { color: red }", type: "text/css").etag)
        #expect(Set([PageFile.html.etag, PageFile.script.etag, PageFile.style.etag]).count == 3)
        // Quoted, as RFC 9110 writes an entity tag.
        #expect(a.etag.hasPrefix("\"") && a.etag.hasSuffix("\""))
    }
}
