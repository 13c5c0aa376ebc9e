import type { Config } from "prismic-ts-codegen";

// `npm run codegen` regenerates the document and slice types from the local models. The models in
// customtypes/ and slices/ are the source of truth; test/content/content-model.test.ts fails when the
// generated file is out of date.
const config: Config = {
  output: "./src/content/prismic-types.generated.ts",
  typesProvider: "@prismicio/client",
  models: ["./customtypes/**/index.json", "./slices/**/model.json"],
  locales: ["en-au", "ar-ae"],
  clientIntegration: {
    includeCreateClientInterface: true,
    includeContentNamespace: true,
  },
};

export default config;
