// Standalone reproduction of the resident-memory growth seen in the soak test's no-store tier
// (docs/soak.md, "Memory growth"): plain FoundationNetworking URLSession, no mediactl code.
// Each task's body is collected in a delegate and dropped on completion, like
// URLSessionOriginFetcher; RSS still grows about 160 bytes per request.
//
//   swiftc -O -swift-version 6 benchmarks/soak/urlsession-growth.swift -o /tmp/urlsession-growth
//   /tmp/urlsession-growth http://127.0.0.1:PORT/one-time/coffee-237a7131.jpg 160000 [RECYCLE]
//
// With RECYCLE (a task count), a new URLSession replaces the old one every RECYCLE tasks and the
// old one gets finishTasksAndInvalidate(); the growth is the same (measured with 10000).
//
// Prints `requests N rss_kib K` every 20,000 requests (64 in flight, 16 connections per host).
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

final class Delegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    let bodies = Mutex<[Int: [UInt8]]>([:])
    let done: @Sendable () -> Void
    init(done: @escaping @Sendable () -> Void) { self.done = done }
    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        bodies.withLock { $0[dataTask.taskIdentifier, default: []].append(contentsOf: data) }
    }
    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        _ = bodies.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        done()
    }
}

func rssKiB() -> Int {
    let s = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    for line in s.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? -1
    }
    return -1
}

let args = CommandLine.arguments
let url = URL(string: args[1])!
let total = Int(args[2])!
let recycle = args.count > 3 ? Int(args[3])! : 0
let window = 64
let config = URLSessionConfiguration.ephemeral
config.urlCache = nil
config.httpCookieStorage = nil
config.httpMaximumConnectionsPerHost = 16
let sem = DispatchSemaphore(value: window)
let finished = Atomic<Int>(0)
let delegate = Delegate(done: { finished.add(1, ordering: .relaxed); sem.signal() })
var session = URLSession(configuration: config, delegate: delegate, delegateQueue: nil)
for i in 1...total {
    sem.wait()
    var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: 10)
    request.setValue("mediactl", forHTTPHeaderField: "User-Agent")
    session.dataTask(with: request).resume()
    if recycle > 0 && i % recycle == 0 {
        let old = session
        session = URLSession(configuration: config, delegate: delegate, delegateQueue: nil)
        old.finishTasksAndInvalidate()
    }
    if i % 20000 == 0 { print("requests \(i) rss_kib \(rssKiB())") }
}
for _ in 0..<window { sem.wait() }
print("done \(finished.load(ordering: .relaxed)) rss_kib \(rssKiB())")
