/**
 * API Gateway's HTTP API in front of a Lambda handler, for tests that invoke `src/api/lambda.ts` as
 * deployed: a loopback HTTP server that turns each request into a payload 2.0 event (stage `main`,
 * the path with the stage as `rawPath`, the body as text, the caller's address as `sourceIp`) and the
 * handler's answer back into the response. Stripe's stand-in sends its signed webhooks here.
 */
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

type LambdaResult = {
  statusCode: number;
  headers?: Record<string, string>;
  cookies?: string[];
  body?: string;
  isBase64Encoded?: boolean;
};
export type HttpHandler = (event: unknown, context: unknown) => Promise<unknown>;

export interface ApiGateway {
  /** `http://127.0.0.1:<port>/main`: the stage's invoke URL. */
  url: string;
  stop(): Promise<void>;
}

export async function startApiGateway(handler: HttpHandler): Promise<ApiGateway> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://gateway");
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers))
        if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(",") : value;
      const body = Buffer.concat(chunks).toString("utf8");
      const event = {
        version: "2.0",
        routeKey: "$default",
        rawPath: url.pathname,
        rawQueryString: url.search.slice(1),
        headers,
        requestContext: {
          accountId: "123456789012",
          apiId: "gateway",
          domainName: headers.host ?? "127.0.0.1",
          domainPrefix: "gateway",
          http: {
            method: req.method ?? "GET",
            path: url.pathname,
            protocol: "HTTP/1.1",
            sourceIp: req.socket.remoteAddress ?? "127.0.0.1",
            userAgent: headers["user-agent"] ?? "",
          },
          requestId: randomUUID(),
          routeKey: "$default",
          stage: "main",
          time: new Date().toUTCString(),
          timeEpoch: Date.now(),
        },
        isBase64Encoded: false,
        ...(body ? { body } : {}),
      };
      handler(event, { awsRequestId: randomUUID() }).then(
        (answer) => {
          const result = answer as LambdaResult;
          res.statusCode = result.statusCode;
          for (const [name, value] of Object.entries(result.headers ?? {})) res.setHeader(name, value);
          if (result.cookies?.length) res.setHeader("set-cookie", result.cookies);
          res.end(result.body ? Buffer.from(result.body, result.isBase64Encoded ? "base64" : "utf8") : undefined);
        },
        (error: Error) => {
          // As API Gateway answers a function that threw.
          res.statusCode = 500;
          res.setHeader("content-type", "application/json");
          res.end(JSON.stringify({ message: "Internal Server Error", error: error.message }));
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/main`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
