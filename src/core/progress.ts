/**
 * The progress line of a build on a terminal: which stages are running, the newest detail a stage
 * reported ("images 12 of 29"), and the time since the build started, redrawn a few times a second,
 * so that a cold build that spends 20 s making images does not sit silent. With a logger that has
 * no progress line (a pipe, CI, a test, the webhook server's memory), it does nothing.
 */
import { formatMs, type LogLabel, type Logger } from "./logger.js";

export interface StageProgress {
  /** The logger to hand the stages: its `progress` feeds this line. */
  logger: Logger;
  start(stage: string): void;
  end(stage: string): void;
  /** Clears the line and stops redrawing. */
  stop(): void;
}

const REDRAW_MS = 250;

export function stageProgress(logger: Logger, label: LogLabel = "build"): StageProgress {
  const draw = logger.progress?.bind(logger);
  if (!draw) return { logger, start() {}, end() {}, stop() {} };
  const started = performance.now();
  const running: string[] = [];
  const details = new Map<string, string>();
  let timer: NodeJS.Timeout | undefined;
  const redraw = () => {
    if (!running.length) return;
    const what = running.map((stage) => (details.has(stage) ? `${stage} (${details.get(stage)})` : stage)).join(", ");
    draw(label, `${what}… ${formatMs(performance.now() - started)}`);
  };
  const schedule = () => {
    if (running.length && !timer) {
      timer = setInterval(redraw, REDRAW_MS);
      timer.unref();
    } else if (!running.length && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
  return {
    logger: {
      ...logger,
      debug: logger.debug.bind(logger),
      info: logger.info.bind(logger),
      warn: logger.warn.bind(logger),
      error: logger.error.bind(logger),
      progress: (stage, message) => {
        if (message === null) details.delete(stage);
        else details.set(stage, message);
        redraw();
      },
    },
    start(stage) {
      running.push(stage);
      schedule();
      redraw();
    },
    end(stage) {
      const at = running.indexOf(stage);
      if (at >= 0) running.splice(at, 1);
      details.delete(stage);
      schedule();
    },
    stop() {
      running.length = 0;
      schedule();
      draw(label, null);
    },
  };
}
