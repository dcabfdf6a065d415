/// What an unknown card is linked to when the link-card button is held: what is playing.
/// A URL as it is; the loaded playlist; else the playing track's folder relative to the
/// music folder (the track itself when it lies at the top), resumed when that folder keeps
/// its own place (`[library] remember_position`): a book.
public enum CardLink {
    public struct Refusal: Error, Equatable {
        public var reason: String
    }

    public static func entry(_ card: CardID, playing path: String, playlist: String?, title: String?,
                             musicDirectory: String, rememberedFolders: [String]) -> Result<CardEntry, Refusal> {
        if case .url(let url) = TrackLocation(path) {
            return .success(CardEntry(id: card, name: title ?? url, does: .play(CardMusic(target: .url(url)))))
        }
        if let playlist, !playlist.isEmpty {
            return .success(CardEntry(id: card, name: playlist, does: .play(CardMusic(target: .playlist(playlist)))))
        }
        let root = musicDirectory.hasSuffix("/") ? musicDirectory : musicDirectory + "/"
        let file = ChapterEntry(path)?.file ?? path
        guard file.hasPrefix(root) else { return .failure(Refusal(reason: "\(path) is not in the music folder \(musicDirectory)")) }
        let relative = String(file.dropFirst(root.count))
        let folder = relative.lastIndex(of: "/").map { String(relative[..<$0]) }
        var music = CardMusic(target: .library(folder ?? relative))
        music.resume = FolderPlaces(folders: rememberedFolders).folder(of: path) != nil
        let name = (folder ?? relative).split(separator: "/").last.map(String.init) ?? relative
        return .success(CardEntry(id: card, name: name, does: .play(music)))
    }
}
