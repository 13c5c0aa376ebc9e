/**
 * Imported for its place in the bundle, by the deferred chunks that render React (the pay and
 * PayPal kits: their steps; the account's signed-in view and two-step sign-in). esbuild puts each
 * module in the chunk of the entries that import it, so a deferred chunk that imported react but
 * not the rest of what every island imports split the framework's shared chunk: React in one
 * chunk, react-dom and the hydration code in others (more requests on every island page, and the
 * hydration code counted against each island's budget).
 * Importing what every island imports keeps it one chunk. Nothing runs twice: a module runs once.
 */
import "react";
import "react-dom";
import "react-dom/client";
import "./hydrate.js";
