/// The product version, shared by the CLI (`mediactl --version`) and what the service tells origins
/// (`User-Agent: mediactl/0.1.0`).
public enum ServiceVersion {
    /// `0.1.0`.
    public static let current = "0.1.0"
    /// `mediactl/0.1.0`: the `User-Agent` of every image-tier origin request (``HeaderHygiene``).
    public static let userAgent = "mediactl/" + current
}
