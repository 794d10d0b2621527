-- Decision 0045 amended: the staging tables (0042) take rows and give them up all day, so their
-- dead rows grow fast — and every metric call's "anything staged?" probe walks them (measured after
-- a 10,000-message burst: 530,000 dead rows, 6.5 ms a probe; vacuumed, 0.3 ms). Autovacuum takes
-- them after a thousand dead rows instead of a fifth of the table, and the fold job vacuums them
-- each minute (modules/metrics/rollups.ts).
ALTER TABLE "metrics_messages_daily_pending" SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000);--> statement-breakpoint
ALTER TABLE "metrics_chat_months_pending" SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000);--> statement-breakpoint
ALTER TABLE "metrics_entities_daily_pending" SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000);--> statement-breakpoint
ALTER TABLE "metrics_analyses_daily_pending" SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000);--> statement-breakpoint
ALTER TABLE "metrics_sales_daily_pending" SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000);
