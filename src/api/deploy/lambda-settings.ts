/**
 * The settings the payments service's Lambda functions read, as src/core/options.ts declares them
 * (each entry's `lambda`): which come from template parameters (every function's environment, so
 * a deploy that replaces the environment sets them again instead of wiping values set by hand),
 * and which from the stack's secret in Secrets Manager. The template (template.ts) and the secret
 * reader (secrets.ts) take their lists from here; test/api/deploy.test.ts checks they agree with
 * what the service's code reads.
 */
import { type LambdaSetting, OPTIONS, type OptionSpec } from "../../core/options.js";

export interface ParameterSetting {
  /** The setting's key in src/core/options.ts. */
  key: string;
  /** The environment variable the function reads. */
  variable: string;
  /** The template parameter that gives it. */
  parameter: string;
  /** The parameter's default: the setting's own, or empty (unset). */
  default: string;
  allowed?: readonly string[];
  help: string;
}

const specs = OPTIONS as readonly OptionSpec[];

const variableOf = (spec: OptionSpec) => {
  const variable = spec.env?.[0];
  if (!variable) throw new Error(`The setting ${spec.key} has a lambda entry but no environment variable`);
  return variable;
};

const isParameter = (l: LambdaSetting | undefined): l is { parameter: string; allowed?: readonly string[] } =>
  typeof l === "object" && "parameter" in l;

/** The settings given by template parameters, in the order of src/core/options.ts. */
export function parameterSettings(): ParameterSetting[] {
  return specs.flatMap((spec) => {
    const lambda = spec.lambda;
    if (!isParameter(lambda)) return [];
    return [
      {
        key: spec.key,
        variable: variableOf(spec),
        parameter: lambda.parameter,
        default: spec.default ?? "",
        ...(lambda.allowed ? { allowed: lambda.allowed } : {}),
        help: spec.help,
      },
    ];
  });
}

/** The variables read from the stack's secret (a JSON object of them), never from the environment. */
export function secretVariables(): string[] {
  return specs.filter((spec) => typeof spec.lambda === "object" && "secret" in spec.lambda).map(variableOf);
}
