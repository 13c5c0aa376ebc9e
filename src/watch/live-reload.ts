/**
 * Live reload for watch mode: a Server-Sent Events stream at /__nzf/events and a small client
 * script at /__nzf/reload.js, injected into every HTML page the dev server sends (never into dist/).
 * After a rebuild the page reloads itself; after a failed one it shows the error over the page; after
 * watch mode restarted it reloads when it reconnects.
 */
import type { IncomingMessage, ServerResponse } from "node:http";

const CLIENT = `
const source = new EventSource("/__nzf/events");
let overlay;
function showError(text) {
  overlay ??= Object.assign(document.createElement("pre"), { id: "nzf-build-error", role: "alert" });
  overlay.style.cssText = "position:fixed;inset:auto 0 0 0;max-height:60vh;overflow:auto;margin:0;padding:1rem;background:#2b0b0b;color:#fff;font:14px/1.4 monospace;z-index:2147483647;white-space:pre-wrap";
  overlay.textContent = "nzf-build: the last change did not build\\n\\n" + text;
  document.body.append(overlay);
}
source.addEventListener("reload", () => location.reload());
// Lost and found again: watch mode restarted (nzf-build recompiled itself), so the site may have changed.
let lost = false;
source.addEventListener("error", () => (lost = true));
source.addEventListener("open", () => lost && location.reload());
source.addEventListener("error-shown", (e) => showError(JSON.parse(e.data)));
source.addEventListener("error-cleared", () => overlay?.remove());
`;

export interface LiveReload {
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  inject(html: string): string;
  send(event: string, data: string): void;
  showError(text: string): void;
  clearError(): void;
  close(): void;
}

export function createLiveReload(): LiveReload {
  const clients = new Set<ServerResponse>();
  let currentError: string | null = null;
  const send = (event: string, data: string) => {
    for (const res of clients) res.write(`event: ${event}\ndata: ${data}\n\n`);
  };
  return {
    handle(req, res) {
      if (req.url === "/__nzf/reload.js") {
        res
          .writeHead(200, { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-store" })
          .end(CLIENT);
        return true;
      }
      if (req.url === "/__nzf/events") {
        res.writeHead(200, {
          "content-type": "text/event-stream",
          "cache-control": "no-store",
          connection: "keep-alive",
        });
        // Reconnect soon after a restart (the browser's default wait is 3 s).
        res.write("retry: 300\n: connected\n\n");
        clients.add(res);
        if (currentError) res.write(`event: error-shown\ndata: ${JSON.stringify(currentError)}\n\n`);
        req.on("close", () => clients.delete(res));
        return true;
      }
      return false;
    },
    inject: (html) => html.replace("</body>", `<script type="module" src="/__nzf/reload.js"></script>\n</body>`),
    send,
    showError(text) {
      currentError = text;
      send("error-shown", JSON.stringify(text));
    },
    clearError() {
      if (currentError) send("error-cleared", "");
      currentError = null;
    },
    close() {
      for (const res of clients) res.end();
      clients.clear();
    },
  };
}
