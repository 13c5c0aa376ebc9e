/**
 * The payments service's CloudFormation template (beside the site's, src/deploy/edge-files.ts):
 * the Lambda function (the expiry sweep and the jobs every 15 minutes; the e-mail updates' function,
 * invoked by hand), API Gateway's HTTP API with stage
 * `main` and CORS for the site's origin, PostgreSQL 15 on RDS (its password made and kept by RDS in
 * Secrets Manager), and the Stripe secret in Secrets Manager; ap-southeast-2 only. The secret
 * values are never in the template: the Stripe secret starts as a placeholder that
 * `docs/deploy.md` says how to set and rotate. `scripts/bundle-api-lambda.mjs` writes it with the
 * function's code.
 *
 * Every other setting the functions read is a template parameter, in one environment shared by
 * the four functions (lambda-settings.ts derives the list from src/core/options.ts): CloudFormation
 * replaces a function's whole environment when the template's changes, so a value set by hand in
 * the console would be wiped by the next release.
 */
import { parameterSettings } from "./lambda-settings.js";

export const API_REGION = "ap-southeast-2";
export const API_STAGE = "main";

const sub = (text: string) => ({ "Fn::Sub": text });
const ref = (name: string) => ({ Ref: name });
const getAtt = (resource: string, attribute: string) => ({ "Fn::GetAtt": [resource, attribute] });

/** The parameters the template declares for itself; a setting may share one (SITE_URL is SiteOrigin). */
const OWN_PARAMETERS = ["SiteOrigin", "CodeBucket", "CodeKey", "VpcId", "PrivateSubnetIds", "DatabaseInstanceClass"];

/** A parameter for each setting that has none of the template's own (an empty default is "unset"). */
function settingParameters(): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const s of parameterSettings()) {
    if (OWN_PARAMETERS.includes(s.parameter) || out[s.parameter]) continue;
    out[s.parameter] = {
      Type: "String",
      Default: s.default,
      ...(s.allowed ? { AllowedValues: [...s.allowed] } : {}),
      Description: `${s.variable}: ${s.help}`.slice(0, 4000),
    };
  }
  return out;
}

export function apiStackTemplate(): Record<string, unknown> {
  const lambdaEnvironment = {
    Variables: {
      NODE_OPTIONS: "--enable-source-maps",
      NZF_STRIPE_SECRET_ARN: ref("StripeSecret"),
      NZF_DATABASE_SECRET_ARN: getAtt("Database", "MasterUserSecret.SecretArn"),
      NZF_DATABASE_HOST: getAtt("Database", "Endpoint.Address"),
      NZF_DATABASE_PORT: getAtt("Database", "Endpoint.Port"),
      NZF_DATABASE_NAME: "nzf",
      // SITE_URL (SiteOrigin): where PayPal returns donors (its /account/ page) and what notices link to.
      ...Object.fromEntries(parameterSettings().map((s) => [s.variable, ref(s.parameter)])),
    },
  };
  // The stage's invoke URL: PAYMENTS_API_URL for the site's build and the updates' unsubscribe links.
  const apiUrl = sub(`https://\${HttpApi}.execute-api.\${AWS::Region}.amazonaws.com/${API_STAGE}`);
  const functionProperties = (handler: string, timeout: number) => ({
    Runtime: "nodejs20.x",
    Architectures: ["arm64"],
    Handler: handler,
    Code: { S3Bucket: ref("CodeBucket"), S3Key: ref("CodeKey") },
    Role: getAtt("FunctionRole", "Arn"),
    MemorySize: 512,
    Timeout: timeout,
    Environment: lambdaEnvironment,
    VpcConfig: { SubnetIds: ref("PrivateSubnetIds"), SecurityGroupIds: [ref("FunctionSecurityGroup")] },
  });
  return {
    AWSTemplateFormatVersion: "2010-09-09",
    Description:
      "NZF payments API: Lambda behind an HTTP API (stage main), PostgreSQL on RDS, secrets in Secrets Manager",
    Parameters: {
      SiteOrigin: {
        Type: "String",
        Default: "https://nzf.org.au",
        AllowedPattern: "^https://[^/]+$",
        Description: "The site's origin: the only one CORS allows",
      },
      CodeBucket: {
        Type: "String",
        Description: "S3 bucket holding the function's zip (scripts/bundle-api-lambda.mjs)",
      },
      CodeKey: {
        Type: "String",
        Description: "S3 key of the zip; a new key per release makes CloudFormation update the code",
      },
      VpcId: { Type: "AWS::EC2::VPC::Id" },
      PrivateSubnetIds: {
        Type: "List<AWS::EC2::Subnet::Id>",
        Description: "Two or more private subnets in different zones, with a NAT gateway: the function calls Stripe",
      },
      DatabaseInstanceClass: { Type: "String", Default: "db.t4g.micro" },
      ...settingParameters(),
    },
    Rules: {
      SydneyOnly: {
        Assertions: [
          { Assert: { "Fn::Equals": [ref("AWS::Region"), API_REGION] }, AssertDescription: `Deploy in ${API_REGION}` },
        ],
      },
    },
    Resources: {
      StripeSecret: {
        Type: "AWS::SecretsManager::Secret",
        Properties: {
          Name: sub("${AWS::StackName}/stripe"),
          Description:
            "STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET (JSON); set after the first deploy (docs/deploy.md)",
          SecretString: JSON.stringify({ STRIPE_SECRET_KEY: "set-me", STRIPE_WEBHOOK_SECRET: "set-me" }),
        },
      },
      DatabaseSubnets: {
        Type: "AWS::RDS::DBSubnetGroup",
        Properties: { DBSubnetGroupDescription: "NZF payments database", SubnetIds: ref("PrivateSubnetIds") },
      },
      FunctionSecurityGroup: {
        Type: "AWS::EC2::SecurityGroup",
        Properties: { GroupDescription: "NZF payments API function", VpcId: ref("VpcId") },
      },
      DatabaseSecurityGroup: {
        Type: "AWS::EC2::SecurityGroup",
        Properties: {
          GroupDescription: "NZF payments database: PostgreSQL from the function only",
          VpcId: ref("VpcId"),
          SecurityGroupIngress: [
            { IpProtocol: "tcp", FromPort: 5432, ToPort: 5432, SourceSecurityGroupId: ref("FunctionSecurityGroup") },
          ],
        },
      },
      Database: {
        Type: "AWS::RDS::DBInstance",
        DeletionPolicy: "Snapshot",
        UpdateReplacePolicy: "Snapshot",
        Properties: {
          Engine: "postgres",
          EngineVersion: "15",
          DBInstanceClass: ref("DatabaseInstanceClass"),
          AllocatedStorage: "20",
          StorageType: "gp3",
          StorageEncrypted: true,
          DBName: "nzf",
          MasterUsername: "nzf_api",
          // RDS makes the password and keeps (and rotates) it in Secrets Manager.
          ManageMasterUserPassword: true,
          DBSubnetGroupName: ref("DatabaseSubnets"),
          VPCSecurityGroups: [ref("DatabaseSecurityGroup")],
          PubliclyAccessible: false,
          MultiAZ: false,
          BackupRetentionPeriod: 7,
          DeletionProtection: true,
        },
      },
      FunctionRole: {
        Type: "AWS::IAM::Role",
        Properties: {
          AssumeRolePolicyDocument: {
            Version: "2012-10-17",
            Statement: [{ Effect: "Allow", Principal: { Service: "lambda.amazonaws.com" }, Action: "sts:AssumeRole" }],
          },
          ManagedPolicyArns: ["arn:aws:iam::aws:policy/service-role/AWSLambdaVPCAccessExecutionRole"],
          Policies: [
            {
              PolicyName: "read-payments-secrets",
              PolicyDocument: {
                Version: "2012-10-17",
                Statement: [
                  {
                    Effect: "Allow",
                    Action: "secretsmanager:GetSecretValue",
                    Resource: [ref("StripeSecret"), getAtt("Database", "MasterUserSecret.SecretArn")],
                  },
                  // Receipts by e-mail through Amazon SES (NZF_MAIL_TRANSPORT=ses).
                  { Effect: "Allow", Action: ["ses:SendEmail", "ses:SendRawEmail"], Resource: "*" },
                ],
              },
            },
          ],
        },
      },
      ApiFunction: { Type: "AWS::Lambda::Function", Properties: functionProperties("lambda.handler", 29) },
      SweepFunction: { Type: "AWS::Lambda::Function", Properties: functionProperties("lambda.sweep", 300) },
      SweepSchedule: {
        Type: "AWS::Events::Rule",
        Properties: {
          Description: "Expire never-paid donations (24 hours) and old idempotency records",
          ScheduleExpression: "rate(15 minutes)",
          Targets: [{ Arn: getAtt("SweepFunction", "Arn"), Id: "sweep" }],
        },
      },
      SweepPermission: {
        Type: "AWS::Lambda::Permission",
        Properties: {
          FunctionName: ref("SweepFunction"),
          Action: "lambda:InvokeFunction",
          Principal: "events.amazonaws.com",
          SourceArn: getAtt("SweepSchedule", "Arn"),
        },
      },
      // Scheduled gifts (every Friday, the nights of Ramadan, ...) charged on their dates, and
      // receipts whose e-mail is due again (issue 39): lambda.runJobs, idempotent per (plan, date).
      JobsFunction: { Type: "AWS::Lambda::Function", Properties: functionProperties("lambda.runJobs", 300) },
      JobsSchedule: {
        Type: "AWS::Events::Rule",
        Properties: {
          Description: "Charge scheduled gifts due today (Australia/Sydney) and send due receipt e-mails",
          ScheduleExpression: "rate(15 minutes)",
          Targets: [{ Arn: getAtt("JobsFunction", "Arn"), Id: "jobs" }],
        },
      },
      JobsPermission: {
        Type: "AWS::Lambda::Permission",
        Properties: {
          FunctionName: ref("JobsFunction"),
          Action: "lambda:InvokeFunction",
          Principal: "events.amazonaws.com",
          SourceArn: getAtt("JobsSchedule", "Arn"),
        },
      },
      // E-mail updates (issue 39), sent by hand: invoked with the update as its event
      // (docs/deploy.md); no rule calls it. Its unsubscribe links point at this stack's API.
      UpdatesFunction: {
        Type: "AWS::Lambda::Function",
        Properties: {
          ...functionProperties("lambda.sendUpdates", 300),
          Environment: { Variables: { ...lambdaEnvironment.Variables, PAYMENTS_API_URL: apiUrl } },
        },
      },
      HttpApi: {
        Type: "AWS::ApiGatewayV2::Api",
        Properties: {
          Name: sub("${AWS::StackName}-payments"),
          ProtocolType: "HTTP",
          CorsConfiguration: {
            AllowOrigins: [ref("SiteOrigin")],
            AllowMethods: ["GET", "POST", "PATCH", "OPTIONS"],
            AllowHeaders: ["authorization", "content-type", "idempotency-key", "donation-key"],
            ExposeHeaders: ["idempotent-replayed", "retry-after"],
            MaxAge: 600,
            AllowCredentials: false,
          },
        },
      },
      HttpIntegration: {
        Type: "AWS::ApiGatewayV2::Integration",
        Properties: {
          ApiId: ref("HttpApi"),
          IntegrationType: "AWS_PROXY",
          IntegrationUri: getAtt("ApiFunction", "Arn"),
          PayloadFormatVersion: "2.0",
          TimeoutInMillis: 29000,
        },
      },
      DefaultRoute: {
        Type: "AWS::ApiGatewayV2::Route",
        Properties: { ApiId: ref("HttpApi"), RouteKey: "$default", Target: sub("integrations/${HttpIntegration}") },
      },
      MainStage: {
        Type: "AWS::ApiGatewayV2::Stage",
        Properties: {
          ApiId: ref("HttpApi"),
          StageName: API_STAGE,
          AutoDeploy: true,
          DefaultRouteSettings: { ThrottlingBurstLimit: 50, ThrottlingRateLimit: 25 },
        },
      },
      ApiPermission: {
        Type: "AWS::Lambda::Permission",
        Properties: {
          FunctionName: ref("ApiFunction"),
          Action: "lambda:InvokeFunction",
          Principal: "apigateway.amazonaws.com",
          SourceArn: sub("arn:aws:execute-api:${AWS::Region}:${AWS::AccountId}:${HttpApi}/*"),
        },
      },
    },
    Outputs: {
      PaymentsApiUrl: { Description: "PAYMENTS_API_URL for the site's build", Value: apiUrl },
      UpdatesFunctionName: {
        Description: "The function to invoke with an e-mail update as its payload (docs/deploy.md)",
        Value: ref("UpdatesFunction"),
      },
      StripeWebhookUrl: {
        Description: "The endpoint to add in Stripe (Developers > Webhooks)",
        Value: sub(`https://\${HttpApi}.execute-api.\${AWS::Region}.amazonaws.com/${API_STAGE}/stripe/webhook`),
      },
      StripeSecretArn: { Value: ref("StripeSecret") },
      DatabaseSecretArn: { Value: getAtt("Database", "MasterUserSecret.SecretArn") },
    },
  };
}
