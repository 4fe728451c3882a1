/// The product version and the `User-Agent` mediactl sends origins: one definition for the pipeline
/// (`ServiceVersion`, `mediactl --version`) and the transport (MediaCurl's default `User-Agent`).
public enum ProductVersion {
    /// `0.1.0`.
    public static let current = "0.1.0"
    /// `mediactl/0.1.0`.
    public static let userAgent = "mediactl/" + current
}
