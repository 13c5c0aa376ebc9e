/** The CloudFront side of a deploy: one invalidation of the changed paths. */
import { CloudFrontClient, CreateInvalidationCommand } from "@aws-sdk/client-cloudfront";
import { requestTimeouts } from "./bucket.js";
import type { DeploySettings } from "./settings.js";

export async function invalidate(
  settings: DeploySettings & { distribution: string },
  paths: string[],
  reference: string,
  signal?: AbortSignal,
): Promise<string | undefined> {
  // CloudFront's API is global: its requests are signed for us-east-1 whatever the bucket's region.
  // Its endpoint is AWS's (the tests' local CloudFront is named by the SDK's AWS_ENDPOINT_URL_CLOUDFRONT).
  const client = new CloudFrontClient({ region: "us-east-1", requestHandler: requestTimeouts(settings) });
  try {
    const answer = await client.send(
      new CreateInvalidationCommand({
        DistributionId: settings.distribution,
        InvalidationBatch: { CallerReference: reference, Paths: { Quantity: paths.length, Items: paths } },
      }),
      { abortSignal: signal },
    );
    return answer.Invalidation?.Id;
  } finally {
    client.destroy();
  }
}
