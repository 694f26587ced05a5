/// The file every site Rolodeck writes holds at its top (the output's manifest): a build never
/// replaces a folder without it, and the store's walk never reads a folder with it.
public enum OutputMarker {
    /// Its name.
    public static let name = ".rolodeck"
}
