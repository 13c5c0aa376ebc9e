/** Events: retrieve one, list (newest first, optionally of one `type`), as the webhook sent them. */
import { noSuch } from "../errors.js";
import type { Route } from "../server.js";
import { listOf } from "../store.js";
import { page } from "./customers.js";

export const eventRoutes: Route[] = [
  {
    method: "GET",
    path: "/v1/events/:id",
    handler({ store, id, params: p }) {
      p.done();
      const event = store.events.find((e) => e.id === id);
      if (!event) throw noSuch("event", id);
      return event;
    },
  },
  {
    method: "GET",
    path: "/v1/events",
    handler({ store, params: p }) {
      const type = p.string("type");
      const cursor = page(p);
      p.value("created");
      p.value("types");
      p.done();
      const all = store.events
        .filter(
          (e) => type === undefined || e.type === type || (type.endsWith(".*") && e.type.startsWith(type.slice(0, -1))),
        )
        .reverse();
      return listOf("/v1/events", all, cursor);
    },
  },
];
