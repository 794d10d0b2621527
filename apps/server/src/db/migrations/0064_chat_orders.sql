-- Orders built in the chat (issue 30, decision 0088): the WhatsApp cart an order confirms (one order
-- per cart, whoever clicks twice) and the agent who built it.
ALTER TABLE "orders" ADD COLUMN "cart_message_id" uuid;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "created_by" uuid;--> statement-breakpoint
CREATE UNIQUE INDEX "orders_cart_message_unique" ON "orders" ("company_id", "cart_message_id") WHERE "cart_message_id" IS NOT NULL;
