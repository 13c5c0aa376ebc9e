/** Products and Prices: what subscription items' `price_data[product]` and `price` name. */
import { createPrice, readRecurring } from "../billing.js";
import { invalidRequest } from "../errors.js";
import { newId } from "../ids.js";
import type { Route } from "../server.js";
import { listOf } from "../store.js";
import { page } from "./customers.js";
import { checkAmount, readCurrency } from "./payment-intents.js";

export const productRoutes: Route[] = [
  {
    method: "POST",
    path: "/v1/products",
    handler({ store, params: p }) {
      const name = p.string("name", { required: true, max: 250 })!;
      const id = p.string("id", { max: 100 });
      const description = p.nullableString("description", 40_000);
      const metadata = p.metadata("metadata") ?? {};
      const active = p.bool("active") ?? true;
      const statement_descriptor = p.string("statement_descriptor", { max: 22 });
      p.value("tax_code");
      p.value("unit_label");
      p.done();
      if (id !== undefined && !/^[A-Za-z0-9_-]+$/.test(id))
        throw invalidRequest("Invalid id: use letters, digits, _ and -.", "id");
      if (id !== undefined && store.get(id))
        throw invalidRequest(`Product already exists.`, "id", "resource_already_exists");
      const product = store.put({
        id: id ?? newId("prod"),
        object: "product",
        active,
        created: store.now(),
        default_price: null,
        description: description ?? null,
        images: [],
        livemode: false,
        marketing_features: [],
        metadata,
        name,
        package_dimensions: null,
        shippable: null,
        statement_descriptor: statement_descriptor ?? null,
        tax_code: null,
        type: "service",
        unit_label: null,
        updated: store.now(),
        url: null,
      });
      store.emit("product.created", product);
      return product;
    },
  },
  {
    method: "GET",
    path: "/v1/products/:id",
    handler({ store, id, params: p }) {
      p.done();
      return store.require(id, "product");
    },
  },
  {
    method: "POST",
    path: "/v1/products/:id",
    handler({ store, id, params: p }) {
      const product = store.require(id, "product");
      const name = p.string("name", { max: 250 });
      const active = p.bool("active");
      const metadata = p.metadata("metadata", product.metadata);
      const description = p.nullableString("description", 40_000);
      p.done();
      const previous: Record<string, unknown> = {};
      for (const [key, value] of Object.entries({ name, active, metadata, description }))
        if (value !== undefined) {
          previous[key] = product[key];
          product[key] = value;
        }
      product.updated = store.now();
      store.emit("product.updated", product, previous);
      return product;
    },
  },
  {
    method: "GET",
    path: "/v1/products",
    handler({ store, params: p }) {
      const active = p.bool("active");
      const cursor = page(p);
      p.done();
      return listOf(
        "/v1/products",
        store.list("product", (x) => active === undefined || x.active === active),
        cursor,
      );
    },
  },
  {
    method: "POST",
    path: "/v1/prices",
    handler({ store, params: p }) {
      const currency = readCurrency(p)!;
      const unit_amount = p.int("unit_amount", { required: true, min: 0 })!;
      checkAmount(unit_amount, currency, "unit_amount");
      const productId = p.string("product", { max: 255 });
      const productData = p.object("product_data");
      const recurring = readRecurring(p, false);
      const metadata = p.metadata("metadata") ?? {};
      const nickname = p.string("nickname", { max: 250 });
      const lookup_key = p.string("lookup_key", { max: 200 });
      const active = p.bool("active") ?? true;
      const tax_behavior = p.oneOf("tax_behavior", ["exclusive", "inclusive", "unspecified"] as const);
      let productName: string | undefined;
      if (productData) {
        productName = productData.string("name", { required: true, max: 250 });
        productData.value("metadata");
        productData.done();
      }
      p.done();
      if ((productId === undefined) === (productData == null))
        throw invalidRequest("You must specify exactly one of product or product_data.", "product");
      let product = productId;
      if (product !== undefined) store.require(product, "product", "product");
      else {
        product = newId("prod");
        store.put({
          id: product,
          object: "product",
          active: true,
          created: store.now(),
          default_price: null,
          description: null,
          images: [],
          livemode: false,
          marketing_features: [],
          metadata: {},
          name: productName,
          package_dimensions: null,
          shippable: null,
          tax_code: null,
          type: "service",
          unit_label: null,
          updated: store.now(),
          url: null,
        });
      }
      const price = createPrice(store, {
        currency,
        unit_amount,
        product,
        recurring,
        metadata,
        nickname,
        lookup_key,
        active,
        tax_behavior,
      });
      store.emit("price.created", price);
      return price;
    },
  },
  {
    method: "GET",
    path: "/v1/prices/:id",
    handler({ store, id, params: p }) {
      p.done();
      return store.require(id, "price");
    },
  },
  {
    method: "GET",
    path: "/v1/prices",
    handler({ store, params: p }) {
      const product = p.string("product");
      const active = p.bool("active");
      const cursor = page(p);
      p.done();
      return listOf(
        "/v1/prices",
        store.list(
          "price",
          (x) => (product === undefined || x.product === product) && (active === undefined || x.active === active),
        ),
        cursor,
      );
    },
  },
];
