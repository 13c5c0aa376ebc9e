/**
 * Orders v2 (one-off gifts): create, show, the payer's approval (PayPal's window, played by
 * `approve`), capture, and refunds of the capture (Payments v2). An order with intent CAPTURE is
 * captured once: a second capture answers 422 ORDER_ALREADY_CAPTURED, a capture before approval
 * 422 ORDER_NOT_APPROVED. Each capture raises PAYMENT.CAPTURE.COMPLETED, each refund
 * PAYMENT.CAPTURE.REFUNDED.
 */
import { centsOf, money, paypalFeeCents } from "./amounts.js";
import { type StandInContext, link, paypalId } from "./context.js";
import { invalid, notFound, unprocessable } from "./errors.js";

interface Unit {
  reference_id: string;
  cents: number;
  currency: string;
  custom_id?: string;
  invoice_id?: string;
  description?: string;
}

interface Capture {
  id: string;
  orderId: string;
  unit: Unit;
  refundedCents: number;
  create_time: string;
  update_time: string;
  status: "COMPLETED" | "PARTIALLY_REFUNDED" | "REFUNDED";
}

interface Order {
  id: string;
  intent: "CAPTURE";
  status: "CREATED" | "APPROVED" | "COMPLETED";
  units: Unit[];
  create_time: string;
  update_time: string;
  payer?: { given_name: string; surname: string; email_address: string; payer_id: string };
  captures: Capture[];
  returnUrl?: string;
}

export interface Payer {
  givenName?: string;
  surname?: string;
  email?: string;
}

const MAX_TEXT = { reference_id: 256, custom_id: 127, invoice_id: 127, description: 127 } as const;

export class Orders {
  private readonly orders = new Map<string, Order>();
  private readonly captures = new Map<string, Capture>();

  constructor(private readonly ctx: StandInContext) {}

  create(body: Record<string, unknown>, prefer: string | undefined): { status: number; body: unknown } {
    if (body.intent !== "CAPTURE") {
      if (body.intent === undefined)
        throw invalid("/intent", "MISSING_REQUIRED_PARAMETER", "A required field / parameter is missing.");
      throw invalid(
        "/intent",
        "INVALID_PARAMETER_VALUE",
        "The value of a field is invalid. This stand-in takes intent CAPTURE.",
        String(body.intent),
      );
    }
    const rawUnits = body.purchase_units;
    if (!Array.isArray(rawUnits) || rawUnits.length === 0)
      throw invalid("/purchase_units", "MISSING_REQUIRED_PARAMETER", "A required field / parameter is missing.");
    if (rawUnits.length > 10)
      throw invalid(
        "/purchase_units",
        "INVALID_ARRAY_MAX_ITEMS",
        "The number of items in an array parameter is too large.",
      );
    const units = rawUnits.map((raw, i): Unit => {
      const u = raw as Record<string, unknown>;
      const { cents, currency } = centsOf(
        u.amount,
        `/purchase_units/@reference_id=='${String(u.reference_id ?? "default")}'/amount`,
      );
      const unit: Unit = { reference_id: "default", cents, currency };
      for (const key of ["reference_id", "custom_id", "invoice_id", "description"] as const) {
        const value = u[key];
        if (value === undefined) continue;
        if (typeof value !== "string" || value.length < 1 || value.length > MAX_TEXT[key])
          throw invalid(
            `/purchase_units/${i}/${key}`,
            "INVALID_STRING_LENGTH",
            "The value of a field is either too short or too long.",
          );
        unit[key] = value;
      }
      return unit;
    });
    if (new Set(units.map((u) => u.reference_id)).size !== units.length)
      throw unprocessable(
        "DUPLICATE_REFERENCE_ID",
        "`reference_id` must be unique if multiple `purchase_unit` are provided.",
      );
    const now = this.ctx.now().toISOString();
    const order: Order = {
      id: paypalId(),
      intent: "CAPTURE",
      status: "CREATED",
      units,
      create_time: now,
      update_time: now,
      captures: [],
    };
    const context = (body.application_context ??
      (body.payment_source as { paypal?: { experience_context?: unknown } })?.paypal?.experience_context) as
      | { return_url?: unknown }
      | undefined;
    if (typeof context?.return_url === "string") order.returnUrl = context.return_url;
    this.orders.set(order.id, order);
    return { status: 201, body: this.view(order, prefer) };
  }

  get(id: string): unknown {
    return this.view(this.find(id), "return=representation");
  }

  /** The donor approves the order in PayPal's window. */
  approve(id: string, payer: Payer = {}): string | undefined {
    const order = this.find(id);
    if (order.status === "CREATED") {
      order.status = "APPROVED";
      order.update_time = this.ctx.now().toISOString();
      order.payer = {
        given_name: payer.givenName ?? "Test",
        surname: payer.surname ?? "Donor",
        email_address: payer.email ?? "donor@example.org",
        payer_id: paypalId("", 13),
      };
    }
    return order.returnUrl;
  }

  capture(id: string, prefer: string | undefined): { status: number; body: unknown } {
    const order = this.find(id);
    if (order.status === "COMPLETED")
      throw unprocessable(
        "ORDER_ALREADY_CAPTURED",
        "Order already captured.If 'intent=CAPTURE' only one capture per order is allowed.",
      );
    if (order.status !== "APPROVED")
      throw unprocessable(
        "ORDER_NOT_APPROVED",
        "Payer has not yet approved the Order for payment. Please redirect the payer to the 'rel':'approve' url returned as part of the HATEOAS links within the Create Order call or provide a valid payment_source in the request.",
      );
    const now = this.ctx.now().toISOString();
    order.status = "COMPLETED";
    order.update_time = now;
    for (const unit of order.units) {
      const capture: Capture = {
        id: paypalId(),
        orderId: order.id,
        unit,
        refundedCents: 0,
        create_time: now,
        update_time: now,
        status: "COMPLETED",
      };
      order.captures.push(capture);
      this.captures.set(capture.id, capture);
      this.ctx.emit(
        "PAYMENT.CAPTURE.COMPLETED",
        "capture",
        `Payment completed for ${money(unit.cents, unit.currency).value} ${unit.currency}`,
        { ...this.captureView(capture), supplementary_data: { related_ids: { order_id: order.id } } },
        "2.0",
      );
    }
    return { status: 201, body: this.view(order, prefer, prefer !== "return=representation") };
  }

  getCapture(id: string): unknown {
    const capture = this.captures.get(id);
    if (!capture) throw notFound(id);
    return this.captureView(capture);
  }

  refund(captureId: string, body: Record<string, unknown>): { status: number; body: unknown } {
    const capture = this.captures.get(captureId);
    if (!capture) throw notFound(captureId);
    const left = capture.unit.cents - capture.refundedCents;
    if (left === 0) throw unprocessable("CAPTURE_FULLY_REFUNDED", "The capture has already been fully refunded.");
    let cents = left;
    if (body.amount !== undefined) {
      const amount = centsOf(body.amount, "/amount");
      if (amount.currency !== capture.unit.currency)
        throw unprocessable("REFUND_CURRENCY_MISMATCH", "Refund must be in the same currency as the capture.");
      if (amount.cents > left)
        throw unprocessable(
          "REFUND_AMOUNT_EXCEEDED",
          "The refund amount must be less than or equal to the capture amount that has not yet been refunded.",
        );
      cents = amount.cents;
    }
    const now = this.ctx.now().toISOString();
    capture.refundedCents += cents;
    capture.status = capture.refundedCents === capture.unit.cents ? "REFUNDED" : "PARTIALLY_REFUNDED";
    capture.update_time = now;
    const refund = {
      id: paypalId(),
      amount: money(cents, capture.unit.currency),
      status: "COMPLETED",
      ...(typeof body.note_to_payer === "string" ? { note_to_payer: body.note_to_payer } : {}),
      ...(capture.unit.custom_id ? { custom_id: capture.unit.custom_id } : {}),
      ...(capture.unit.invoice_id ? { invoice_id: capture.unit.invoice_id } : {}),
      seller_payable_breakdown: {
        gross_amount: money(cents, capture.unit.currency),
        net_amount: money(cents, capture.unit.currency),
        total_refunded_amount: money(capture.refundedCents, capture.unit.currency),
      },
      create_time: now,
      update_time: now,
      links: [
        link(`${this.ctx.baseUrl}/v2/payments/refunds/REFUND`, "self"),
        link(`${this.ctx.baseUrl}/v2/payments/captures/${capture.id}`, "up"),
      ],
    };
    refund.links[0]!.href = `${this.ctx.baseUrl}/v2/payments/refunds/${refund.id}`;
    this.ctx.emit(
      "PAYMENT.CAPTURE.REFUNDED",
      "refund",
      `A ${refund.amount.value} ${capture.unit.currency} capture payment was refunded`,
      refund,
      "2.0",
    );
    return { status: 201, body: refund };
  }

  /** A capture's order, for a dispute. */
  captureExists(id: string): { cents: number; currency: string } {
    const capture = this.captures.get(id);
    if (!capture) throw notFound(id);
    return { cents: capture.unit.cents, currency: capture.unit.currency };
  }

  private find(id: string): Order {
    const order = this.orders.get(id);
    if (!order) throw notFound(id);
    return order;
  }

  private captureView(c: Capture) {
    const fee = paypalFeeCents(c.unit.cents);
    return {
      id: c.id,
      status: c.status,
      amount: money(c.unit.cents, c.unit.currency),
      final_capture: true,
      ...(c.unit.custom_id ? { custom_id: c.unit.custom_id } : {}),
      ...(c.unit.invoice_id ? { invoice_id: c.unit.invoice_id } : {}),
      seller_protection: { status: "ELIGIBLE", dispute_categories: ["ITEM_NOT_RECEIVED", "UNAUTHORIZED_TRANSACTION"] },
      seller_receivable_breakdown: {
        gross_amount: money(c.unit.cents, c.unit.currency),
        paypal_fee: money(fee, c.unit.currency),
        net_amount: money(c.unit.cents - fee, c.unit.currency),
      },
      links: [
        link(`${this.ctx.baseUrl}/v2/payments/captures/${c.id}`, "self"),
        link(`${this.ctx.baseUrl}/v2/payments/captures/${c.id}/refund`, "refund", "POST"),
        link(`${this.ctx.baseUrl}/v2/checkout/orders/${c.orderId}`, "up"),
      ],
      create_time: c.create_time,
      update_time: c.update_time,
    };
  }

  private view(o: Order, prefer: string | undefined, captured = false) {
    const base = `${this.ctx.baseUrl}/v2/checkout/orders/${o.id}`;
    const links =
      o.status === "COMPLETED"
        ? [link(base, "self")]
        : [
            link(base, "self"),
            link(`${this.ctx.baseUrl}/checkoutnow?token=${o.id}`, o.status === "CREATED" ? "approve" : "payer-action"),
            link(base, "update", "PATCH"),
            link(`${base}/capture`, "capture", "POST"),
          ];
    const payer = o.payer
      ? {
          name: { given_name: o.payer.given_name, surname: o.payer.surname },
          email_address: o.payer.email_address,
          payer_id: o.payer.payer_id,
        }
      : undefined;
    const paymentSource = o.payer
      ? {
          paypal: {
            email_address: o.payer.email_address,
            account_id: o.payer.payer_id,
            account_status: "VERIFIED",
            name: payer!.name,
          },
        }
      : undefined;
    const units = o.units.map((u) => ({
      reference_id: u.reference_id,
      ...(captured ? {} : { amount: money(u.cents, u.currency) }),
      ...(captured ? {} : { payee: { merchant_id: "NZFSTANDIN0001", email_address: "merchant@nzf.example" } }),
      ...(!captured && u.custom_id ? { custom_id: u.custom_id } : {}),
      ...(!captured && u.invoice_id ? { invoice_id: u.invoice_id } : {}),
      ...(!captured && u.description ? { description: u.description } : {}),
      ...(o.captures.length > 0
        ? { payments: { captures: o.captures.filter((c) => c.unit === u).map((c) => this.captureView(c)) } }
        : {}),
    }));
    if (!captured && prefer !== "return=representation") return { id: o.id, status: o.status, links };
    return {
      id: o.id,
      ...(captured ? {} : { intent: o.intent }),
      status: o.status,
      ...(paymentSource ? { payment_source: paymentSource } : {}),
      purchase_units: units,
      ...(payer ? { payer } : {}),
      ...(captured ? {} : { create_time: o.create_time, update_time: o.update_time }),
      links,
    };
  }
}
