import Glibc
import Testing

@testable import MediaCTL

@Suite struct OutputTests {
    @Test func capturedOutputKeepsBytesAndText() {
        let output = CapturedOutput()
        output.write("a")
        output.writeLine("é")
        output.write(bytes: [0xFF])
        output.writeLine()
        #expect(output.bytes == [0x61, 0xC3, 0xA9, 0x0A, 0xFF, 0x0A])
        #expect(output.text == "aé\n\u{FFFD}\n")
    }

    @Test func capturedOutputTakesConcurrentWritesWhole() async {
        let output = CapturedOutput()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<50 {
                group.addTask { output.writeLine("line \(index) of fifty") }
            }
        }
        let lines = output.text.split(separator: "\n").map(String.init)
        #expect(lines.count == 50)
        #expect(Set(lines) == Set((0..<50).map { "line \($0) of fifty" }))
    }

    @Test func fileDescriptorOutputWritesThroughAPipe() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let payload = [UInt8](repeating: 0x41, count: 30_000) + Array("end\n".utf8)
        let sink = FileDescriptorOutput(fileDescriptor: fds[1])
        // Larger than nothing-blocking sizes are fine: the pipe buffer (64 KiB) holds it.
        sink.write(bytes: payload)
        sink.write("")
        close(fds[1])
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
            if count <= 0 { break }
            received.append(contentsOf: buffer[0..<count])
        }
        close(fds[0])
        #expect(received == payload)
        #expect(FileDescriptorOutput.standardOutput.fileDescriptor == 1)
        #expect(FileDescriptorOutput.standardError.fileDescriptor == 2)
    }

    @Test func writingToAClosedDescriptorIsIgnored() {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        close(fds[0])
        close(fds[1])
        FileDescriptorOutput(fileDescriptor: fds[1]).write("dropped\n")
    }
}
