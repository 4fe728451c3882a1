import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Debian's Chromium (`/usr/bin/chromium`, installed by scripts/test) run headless for one page load:
/// `--dump-dom` (the DOM after the page's scripts ran) or `--screenshot`.
///
/// Each run gets a fresh `--user-data-dir` and `HOME` in its own temp folder (no profile, cache or cookies
/// shared between runs), `--no-sandbox` (CI runs as root, where Chromium's sandbox refuses to start),
/// `--disable-dev-shm-usage` (containers have a small `/dev/shm`) and no proxy. The browser is spawned in a
/// process group of its own, so a run that passes its deadline is killed with every helper process it
/// started, and nothing of it outlives the run. Output goes to files, never pipes.
enum HeadlessChromium {
    /// Where Debian's `chromium` package puts its launcher.
    static let executable = "/usr/bin/chromium"

    /// Whether Chromium is installed (scripts/test installs it; without it the browser suite is skipped).
    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    /// The flags of every run, before the run's own.
    static let baseArguments = [
        "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
        "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--disable-sync",
        "--disable-background-networking", "--disable-component-update", "--disable-crash-reporter",
        "--no-proxy-server", "--mute-audio", "--hide-scrollbars",
    ]

    /// One finished run.
    struct Run {
        /// The exit status (128 + signal when it died of one).
        var exitCode: Int32
        /// Whether the deadline passed and the run was killed.
        var timedOut: Bool
        var stdout: String
        var stderr: String
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// `--dump-dom URL` with `--virtual-time-budget` (Chromium advances virtual time only while nothing is
    /// loading, so the page's network requests and promise chains finish within the budget); with
    /// `--enable-logging=stderr --v=0`, so console messages and blocked requests (CORS, ORB) land in
    /// ``Run/stderr``.
    static func dumpDOM(_ url: String, virtualTimeBudgetMilliseconds: Int = 10_000, timeoutSeconds: Double = 20) throws -> Run {
        try run(["--enable-logging=stderr", "--v=0", "--virtual-time-budget=\(virtualTimeBudgetMilliseconds)",
                 "--dump-dom", url], timeoutSeconds: timeoutSeconds)
    }

    /// `--screenshot=FILE --window-size=W,H URL` (a PNG of `width` × `height` CSS pixels at scale 1).
    static func screenshot(_ url: String, to file: URL, width: Int, height: Int,
                           virtualTimeBudgetMilliseconds: Int = 10_000, timeoutSeconds: Double = 20) throws -> Run {
        try run(["--force-device-scale-factor=1", "--window-size=\(width),\(height)",
                 "--virtual-time-budget=\(virtualTimeBudgetMilliseconds)", "--screenshot=\(file.path)", url],
                timeoutSeconds: timeoutSeconds)
    }

    /// Runs Chromium with ``baseArguments``, a fresh profile and `arguments`; kills its process group after
    /// `timeoutSeconds` (the run then has ``Run/timedOut``), and in any case once the browser has exited.
    static func run(_ arguments: [String], timeoutSeconds: Double) throws -> Run {
        guard isAvailable else { throw Failure("\(executable) is missing: apt-get install chromium (scripts/test does)") }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chromium-\(UUID().uuidString)")
        let profile = folder.appendingPathComponent("profile"), home = folder.appendingPathComponent("home")
        for directory in [profile, home] { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) }
        defer { try? FileManager.default.removeItem(at: folder) }
        let stdoutPath = folder.appendingPathComponent("stdout").path, stderrPath = folder.appendingPathComponent("stderr").path

        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home.path
        environment["XDG_CONFIG_HOME"] = home.appendingPathComponent(".config").path
        environment["XDG_CACHE_HOME"] = home.appendingPathComponent(".cache").path
        environment["DISPLAY"] = nil
        let argv = [executable] + baseArguments + ["--user-data-dir=\(profile.path)"] + arguments
        let pid = try spawn(argv, environment: environment, stdout: stdoutPath, stderr: stderrPath)

        var status: Int32 = 0
        var timedOut = false
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while true {
            let waited = waitpid(pid, &status, WNOHANG)
            if waited == pid { break }
            if waited < 0 && errno != EINTR { throw Failure("waitpid: errno \(errno)") }
            if Date() >= deadline {
                timedOut = true
                Glibc.kill(-pid, SIGKILL)
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                break
            }
            usleep(10_000)
        }
        // Helpers (zygote, renderer, GPU, crashpad) left behind by the browser die with the group.
        Glibc.kill(-pid, SIGKILL)
        let exitCode = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Run(exitCode: exitCode, timedOut: timedOut,
                   stdout: (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "",
                   stderr: (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "")
    }

    /// `posix_spawn` of `argv` as the leader of a new process group, stdin from `/dev/null`, stdout and stderr
    /// to the files, signals at their defaults and none blocked.
    private static func spawn(_ argv: [String], environment: [String: String], stdout: String, stderr: String) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t(), allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let arguments = argv.map { strdup($0) } + [nil]
        let variables = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in arguments { free(pointer) }
            for pointer in variables { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, argv[0], &actions, &attributes, arguments, variables)
        guard result == 0, pid > 1 else { throw Failure("posix_spawn \(argv[0]): error \(result)") }
        return pid
    }
}
