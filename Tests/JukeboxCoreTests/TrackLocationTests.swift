import Testing
@testable import JukeboxCore

/// Where a track lives, read from the string a queue, playlist or state file keeps.
@Suite struct TrackLocationTests {
    @Test func httpAndHttpsInAnyCaseAreURLs() {
        for url in ["http://radio.example/live.mp3", "https://host:8443//a/../b.mp3?x=1", "HTTP://Upper.example/x.mp3", "hTtPs://x",
                    "http://", "http://bad url/x.mp3"] {
            #expect(TrackLocation(url) == .url(url))
        }
    }

    @Test func anythingElseNamesAFile() {
        for path in ["/music/a.flac", "Album/b.mp3", "", "http:/one-slash", "httpx://x", "ftp://host/a.mp3", " http://lead.space",
                     "/music/http://inside.mp3", "https:", "/music/Ü/d.flac"] {
            #expect(TrackLocation(path) == .file(path))
        }
    }

    @Test func theEntryIsTheStringItWasReadFrom() {
        for entry in ["/music/a.flac", "HTTP://Upper.example//x/../y.mp3", "ftp://host/a.mp3", "http://radio.example/live"] {
            let location = TrackLocation(entry)
            #expect(location.entry == entry)
            #expect("\(location)" == entry)
            #expect(TrackLocation(location.entry) == location)
        }
    }

    @Test func theEngineAndTheStatusSeeWhereTheEntryLives() {
        let ref = TrackRef(token: 3, path: "https://radio.example/live")
        #expect(ref.location == .url("https://radio.example/live"))
        #expect(ref.path == "https://radio.example/live")
        #expect(TrackRef(token: 4, path: "/music/a.flac").location == .file("/music/a.flac"))
        var status = PlayerStatus()
        #expect(status.location == nil)
        status.path = "http://radio.example/live"
        #expect(status.location == .url("http://radio.example/live"))
    }
}
