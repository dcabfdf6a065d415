/// Refuses a change that another site's page asks a browser to send (CSRF). A change
/// must carry `X-Jukebox: 1`, which a form cannot set and a cross-origin script can
/// set only after a CORS preflight the box never grants; an `Origin` the browser sends
/// must name the page's own host; and `Sec-Fetch-Site`, where sent, must say the
/// request came from the page itself. The session cookie is also SameSite=Strict.
public enum CrossSiteCheck {
    public static let header = "X-Jukebox"

    /// nil: the request may go on; else why it is refused.
    public static func refusal(marker: String?, origin: String?, host: String?, fetchSite: String?) -> String? {
        guard marker == "1" else { return "a change must come from the box's own page (no X-Jukebox header)" }
        if let fetchSite, fetchSite != "same-origin", fetchSite != "none" { return "cross-site request refused (Sec-Fetch-Site: \(fetchSite))" }
        if let origin {
            guard let host, origin == "http://\(host)" || origin == "https://\(host)" else {
                return "cross-site request refused (Origin \(origin.prefix(200)))"
            }
        }
        return nil
    }
}
