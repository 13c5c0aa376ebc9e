/**
 * PayPal's official server SDK (`@paypal/paypal-server-sdk`), set up once from the settings: the
 * client with its OAuth client credentials, the Orders and Subscriptions controllers, and the two
 * REST calls the SDK does not have (catalog products and webhook signature verification), made
 * with the SDK's own token. Sandbox or live by setting.
 *
 * The SDK has no base-URL setting. `apiBase` (watch mode: the local stand-in,
 * `http://127.0.0.1:<port>`) gives it an HTTPS agent that connects to that port instead of TLS to
 * PayPal, so the SDK sends exactly the requests it would send to PayPal; production leaves it unset.
 */
import { Agent, request } from "node:https";
import { connect, type Socket } from "node:net";
import {
  Client,
  Environment,
  OrdersController,
  PaymentsController,
  SubscriptionsController,
} from "@paypal/paypal-server-sdk";

export interface PayPalSettings {
  clientId: string;
  clientSecret: string;
  environment: "sandbox" | "live";
  /** The webhook's id in PayPal's dashboard: verification asks PayPal whether an event was signed for it. */
  webhookId: string;
  /** `http://127.0.0.1:<port>`: a local stand-in of PayPal's REST API instead of PayPal. */
  apiBase?: string;
}

export interface PayPalApi {
  client: Client;
  orders: OrdersController;
  payments: PaymentsController;
  subscriptions: SubscriptionsController;
  settings: PayPalSettings;
  /** A REST call the SDK lacks, with the SDK's OAuth token: the status and the JSON answer. */
  rest(
    method: "GET" | "POST",
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: any }>;
}

/** Connects every HTTPS request to a loopback port, in plain HTTP: the SDK talking to a local stand-in. */
class LoopbackAgent extends Agent {
  constructor(private readonly port: number) {
    super({ keepAlive: true });
  }

  override createConnection(): Socket {
    return connect(this.port, "127.0.0.1");
  }
}

const HOSTS = { sandbox: "api-m.sandbox.paypal.com", live: "api-m.paypal.com" } as const;

/** The loopback port of `apiBase`, refusing anything but http on 127.0.0.1 or localhost (never a remote host in clear). */
export function loopbackPort(apiBase: string): number {
  const url = new URL(apiBase);
  if (url.protocol !== "http:" || !["127.0.0.1", "localhost", "[::1]"].includes(url.hostname) || url.port === "")
    throw new RangeError(`${apiBase} is not a local stand-in's address (http://127.0.0.1:<port>).`);
  return Number(url.port);
}

export function createPayPalApi(settings: PayPalSettings): PayPalApi {
  const agent = settings.apiBase ? new LoopbackAgent(loopbackPort(settings.apiBase)) : undefined;
  const client = new Client({
    clientCredentialsAuthCredentials: { oAuthClientId: settings.clientId, oAuthClientSecret: settings.clientSecret },
    environment: settings.environment === "live" ? Environment.Production : Environment.Sandbox,
    timeout: 20_000,
    ...(agent ? { httpClientOptions: { httpsAgent: agent } } : {}),
  });
  let token: { value: string; expires: number } | undefined;
  async function bearer(): Promise<string> {
    if (!token || token.expires < Date.now() + 60_000) {
      const fetched = await client.clientCredentialsAuthManager.fetchToken();
      token = { value: fetched.accessToken, expires: Date.now() + Number(fetched.expiresIn ?? 300n) * 1000 };
    }
    return token.value;
  }
  return {
    client,
    orders: new OrdersController(client),
    payments: new PaymentsController(client),
    subscriptions: new SubscriptionsController(client),
    settings,
    async rest(method, path, body, headers = {}) {
      const auth = `Bearer ${await bearer()}`;
      const payload = body === undefined ? undefined : JSON.stringify(body);
      return new Promise((resolve, reject) => {
        const req = request(
          {
            host: HOSTS[settings.environment],
            path,
            method,
            agent,
            timeout: 20_000,
            headers: {
              authorization: auth,
              accept: "application/json",
              ...(payload ? { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } : {}),
              ...headers,
            },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (c: Buffer) => chunks.push(c));
            res.on("end", () => {
              const text = Buffer.concat(chunks).toString("utf8");
              let parsed: unknown;
              try {
                parsed = text ? JSON.parse(text) : undefined;
              } catch {
                parsed = text;
              }
              resolve({ status: res.statusCode ?? 0, body: parsed });
            });
            res.on("error", reject);
          },
        );
        req.on("timeout", () => req.destroy(new Error(`PayPal did not answer ${method} ${path} in time.`)));
        req.on("error", reject);
        req.end(payload);
      });
    },
  };
}
