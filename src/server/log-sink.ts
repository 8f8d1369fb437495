/**
 * Where the server's log lines go (stdout): never in the way of the tables.
 *
 * pino's own destination writes on the main thread: on a full disk it emits
 * an `error` nobody handles (the process exits), and on a pipe whose reader
 * has stopped it retries `write(1)` until it can, so nothing else runs — not
 * even `/healthz`. This sink writes off the main thread (`fs.write`, one write
 * at a time, the lines that came meanwhile in the next) and keeps at most
 * `queueBytesMax` of lines waiting. A line that cannot be written is dropped
 * and counted (`dropped`, the metric `cussec_log_lines_dropped_total`): the
 * lines that do not fit while the output is stuck, and those a write refused
 * (ENOSPC on a full disk, EIO, EPIPE …). Writing carries on by itself once the
 * output takes lines again. It never throws and never emits an error.
 */
import { write } from 'node:fs';

/** Lines waiting while the output is slow or stuck, at most: past it they are dropped. */
export const LOG_QUEUE_BYTES_MAX = 1024 * 1024;
/** A pipe that takes nothing now (EAGAIN) is tried again after this long. */
const RETRY_MS = 50;

export class LogSink {
  private waiting: Buffer[] = [];
  /** Bytes waiting or being written. */
  private queuedBytes = 0;
  private writing = false;
  private droppedLines = 0;
  private readonly drainedWaiters: (() => void)[] = [];

  constructor(
    private readonly fd: number,
    private readonly queueBytesMax = LOG_QUEUE_BYTES_MAX,
  ) {}

  /** Lines dropped since the sink was made. */
  get dropped(): number {
    return this.droppedLines;
  }

  /** pino's destination: takes one or more whole lines. Never blocks, never throws. */
  write(text: string): boolean {
    const bytes = Buffer.from(text, 'utf8');
    if (this.queuedBytes + bytes.length > this.queueBytesMax) {
      this.droppedLines += lineCount(bytes);
      return true;
    }
    this.waiting.push(bytes);
    this.queuedBytes += bytes.length;
    if (!this.writing) this.next();
    return true;
  }

  /** Resolves once every line taken is written or dropped, or after `timeoutMs`: whether it drained. */
  drained(timeoutMs: number): Promise<boolean> {
    if (this.queuedBytes === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.drainedWaiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  private next(): void {
    if (this.waiting.length === 0) {
      this.writing = false;
      for (const done of this.drainedWaiters.splice(0)) done();
      return;
    }
    const batch = Buffer.concat(this.waiting);
    this.waiting = [];
    this.writing = true;
    this.send(batch);
  }

  private send(batch: Buffer): void {
    write(this.fd, batch, 0, batch.length, null, (error, written) => {
      if (error === null) {
        this.queuedBytes -= written;
        if (written < batch.length) this.send(batch.subarray(written));
        else this.next();
      } else if (error.code === 'EAGAIN') {
        // A pipe whose reader is behind: try again soon; meanwhile new lines wait, up to the limit.
        setTimeout(() => this.send(batch), RETRY_MS).unref();
      } else {
        // A full disk (ENOSPC) or a broken output: these lines are lost; count them and carry on.
        this.queuedBytes -= batch.length;
        this.droppedLines += lineCount(batch);
        this.next();
      }
    });
  }
}

/** Lines in a batch: its newlines, and a last line without one. */
function lineCount(bytes: Buffer): number {
  let lines = 0;
  for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, i + 1)) lines++;
  return bytes.length > 0 && bytes[bytes.length - 1] !== 10 ? lines + 1 : lines;
}
