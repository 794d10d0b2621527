-- Decision 0061: a WooCommerce delivery's topic and delivery id are not signed, only its body is.
-- The webhook id (X-WC-Webhook-ID) is kept so the processed topic is the one the store's API says
-- that webhook has, and a body is kept once per store by its hash, so a captured delivery replayed
-- under another X-WC-Webhook-Delivery-ID inserts nothing. Rows from before have neither (NULLs do
-- not collide in the unique index).
ALTER TABLE "woocommerce_webhook_events" ADD COLUMN "webhook_id" bigint;--> statement-breakpoint
ALTER TABLE "woocommerce_webhook_events" ADD COLUMN "body_hash" text;--> statement-breakpoint
CREATE UNIQUE INDEX "woocommerce_webhook_events_body_uq" ON "woocommerce_webhook_events" USING btree ("store_id","body_hash");
