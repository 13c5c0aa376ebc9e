/**
 * Live updates for watch mode: a Server-Sent Events stream at /__nzf/events and the dev client at
 * /__nzf/reload.js (src/client/dev/live-client.ts, bundled by src/watch/dev-client.ts), injected into
 * every HTML page the dev server sends (never into dist/). After a rebuild the page takes the new
 * version in place (`update`: new stylesheet, morphed body, changed islands mounted again); after a
 * failed one it shows the error over the page; after watch mode restarted it reloads when it reconnects.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { bundleDevClient } from "./dev-client.js";

export interface LiveReload {
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  inject(html: string): string;
  send(event: string, data: string): void;
  showError(text: string): void;
  clearError(): void;
  /** Bundles the dev client again (its source changed); open pages should then reload. */
  refreshClient(): Promise<void>;
  close(): void;
}

export function createLiveReload(): LiveReload {
  const clients = new Set<ServerResponse>();
  let client: Promise<string> | null = null;
  const clientCode = () => {
    client ??= bundleDevClient().catch(
      (error: unknown) =>
        `console.error(${JSON.stringify(`nzf-build: watch mode's browser script did not build: ${(error as Error).message}`)});`,
    );
    return client;
  };
  let currentError: string | null = null;
  const send = (event: string, data: string) => {
    for (const res of clients) res.write(`event: ${event}\ndata: ${data}\n\n`);
  };
  return {
    handle(req, res) {
      if (req.url === "/__nzf/reload.js") {
        void clientCode().then((code) =>
          res
            .writeHead(200, { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-store" })
            .end(code),
        );
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
    async refreshClient() {
      client = null;
      await clientCode();
    },
    close() {
      for (const res of clients) res.end();
      clients.clear();
    },
  };
}
