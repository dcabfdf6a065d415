#if canImport(Glibc)
import Glibc
#endif

/// The library's own check, run on a finished part file before it takes its name: the
/// sniffer must find the format the extension promised, and the decoder must open the
/// file and read its format, as the scan will (`AudioFile.describe`). What it cannot play
/// is refused with the decoder's reason.
enum UploadProbe {
    /// `partName` in `folder`, opened through the folder's descriptor (/proc/self/fd)
    /// so a link swapped in along the path cannot point the check at another file;
    /// `fallbackPath` where /proc is not mounted.
    static func check(_ partName: String, in folder: Int32, fallbackPath: String,
                      signature: UploadSignature) throws(UploadRefusal) {
        let throughFolder = "/proc/self/fd/\(folder)"
        let path = access(throughFolder, X_OK) == 0 ? "\(throughFolder)/\(partName)" : fallbackPath
        do {
            let format = try FormatSniffer.sniff(try FileReader(path: path))
            guard signature.formats.contains(format) else { throw UploadRefusal.notThisFormat(signature.named) }
            _ = try AudioFile.describe(path)
        } catch let refusal as UploadRefusal {
            throw refusal
        } catch let error as MediaError {
            throw .cannotPlay(error.reason)
        } catch {
            throw .cannotPlay("\(error)")
        }
    }
}
