/// The phone page the daemon serves itself: `/` (html), `/page.js` (script) and
/// `/page.css` (style). Plain files with no build step and no external URL, because the
/// box is often offline and the server's Content-Security-Policy allows only its own
/// origin (no inline script, no inline style). Each asset lives in its own file as a
/// raw string: PageHTML.swift, PageScript.swift, PageStyle.swift.
public enum PageAssets {}
