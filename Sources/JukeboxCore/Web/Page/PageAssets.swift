/// The page's three files, served from the binary (placeholder until the page lands).
public enum PageAssets {
    public static let html = "<!doctype html><title>Jukebox</title><script src=\"/page.js\"></script>"
    public static let script = ""
    public static let style = ""
}
