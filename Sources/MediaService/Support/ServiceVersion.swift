/// The product version, shared by the CLI (`mediactl --version`) and what the service tells origins
/// (`User-Agent: mediactl/0.1.0`).
public enum ServiceVersion {
    /// `0.1.0` (``MediaOrigin/ProductVersion/current``).
    public static let current = ProductVersion.current
    /// `mediactl/0.1.0`: the `User-Agent` of every image-tier origin request (``HeaderHygiene``).
    public static let userAgent = ProductVersion.userAgent
    /// The commit this build was made from: 12 lower-case hex digits (`git rev-parse --short=12 HEAD` of the checkout,
    /// stamped by Plugins/BuildCommitPlugin before each build), or `unknown` for a build outside a git checkout.
    public static let commit = BuildCommit.value
}
