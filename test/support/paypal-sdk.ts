/**
 * PayPal's official server SDK pointed at the local PayPal stand-in. The SDK has no setting for
 * its base URL (only Sandbox or Production), so its HTTPS agent (`httpClientOptions.httpsAgent`,
 * an SDK option) opens a plain connection to the stand-in's port instead of TLS to PayPal: the SDK
 * sends exactly the requests it would send to api-m.sandbox.paypal.com.
 */
import { Agent } from "node:https";
import { connect, type Socket } from "node:net";
import { Client, Environment } from "@paypal/paypal-server-sdk";

export class LoopbackAgent extends Agent {
  constructor(private readonly port: number) {
    super({ keepAlive: false });
  }

  override createConnection(): Socket {
    return connect(this.port, "127.0.0.1");
  }
}

export function sdkClientFor(
  standIn: { port: number; clientId: string; clientSecret: string },
  secret?: string,
): Client {
  return new Client({
    clientCredentialsAuthCredentials: {
      oAuthClientId: standIn.clientId,
      oAuthClientSecret: secret ?? standIn.clientSecret,
    },
    environment: Environment.Sandbox,
    timeout: 10_000,
    httpClientOptions: { httpsAgent: new LoopbackAgent(standIn.port) },
  });
}
