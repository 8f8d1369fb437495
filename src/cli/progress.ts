/** A progress bar for long runs, drawn on stderr only when it is a terminal. */

export interface Progress {
  update(fraction: number): void;
  done(): void;
}

const BAR_WIDTH = 30;

/** A one-line bar, redrawn only when the whole percentage changes; undefined off a terminal. */
export function progressBar(
  stream: NodeJS.WritableStream & { isTTY?: boolean },
): Progress | undefined {
  if (stream.isTTY !== true) return undefined;
  let shown = -1;
  return {
    update(fraction) {
      const percent = Math.floor(fraction * 100);
      if (percent === shown) return;
      shown = percent;
      const filled = Math.round((percent / 100) * BAR_WIDTH);
      stream.write(`\r[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${percent}%`);
    },
    done() {
      stream.write('\r\x1b[2K');
    },
  };
}
