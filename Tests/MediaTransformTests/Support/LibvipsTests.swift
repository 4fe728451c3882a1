import Testing

/// The parent of every suite that runs libvips, run one test at a time: libvips' object and memory
/// accounting is process-wide, so ``ResourceTests`` can only compare it exactly when nothing else
/// transforms meanwhile. (Concurrency itself is tested on purpose, in ResourceTests.)
@Suite(.serialized) enum LibvipsTests {}
