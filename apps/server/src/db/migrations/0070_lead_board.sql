CREATE TABLE "lead_stages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"maps_to" text NOT NULL,
	"position" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lead_board_counts" (
	"company_id" uuid NOT NULL,
	"status" text NOT NULL,
	"stage_key" text NOT NULL,
	"shard" smallint DEFAULT 0 NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "lead_board_counts_company_id_status_stage_key_shard_pk" PRIMARY KEY("company_id","status","stage_key","shard")
);
--> statement-breakpoint
CREATE TABLE "lead_stage_history" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lead_stage_history_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"company_id" uuid NOT NULL,
	"lead_id" uuid NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor" jsonb DEFAULT '{"type":"system"}'::jsonb NOT NULL,
	"from_status" text,
	"from_stage_id" uuid,
	"to_status" text NOT NULL,
	"to_stage_id" uuid
);
--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "stage_id" uuid;--> statement-breakpoint
ALTER TABLE "lead_stages" ADD CONSTRAINT "lead_stages_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_stage_history" ADD CONSTRAINT "lead_stage_history_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lead_stages_created_at_idx" ON "lead_stages" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "lead_stages_updated_at_idx" ON "lead_stages" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "lead_stages_name_idx" ON "lead_stages" USING btree ("company_id","name","id");--> statement-breakpoint
CREATE INDEX "lead_stages_position_idx" ON "lead_stages" USING btree ("company_id","position","id");--> statement-breakpoint
CREATE UNIQUE INDEX "lead_stages_name_uq" ON "lead_stages" USING btree ("company_id","name");--> statement-breakpoint
CREATE INDEX "lead_stages_name_trgm" ON "lead_stages" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "lead_stage_history_company_at_idx" ON "lead_stage_history" USING btree ("company_id","at");--> statement-breakpoint
CREATE INDEX "lead_stage_history_lead_idx" ON "lead_stage_history" USING btree ("company_id","lead_id","at","id");--> statement-breakpoint
CREATE INDEX "leads_stage_id_filter_idx" ON "leads" USING btree ("company_id","stage_id","created_at","id");--> statement-breakpoint
CREATE INDEX "leads_board_idx" ON "leads" USING btree ("company_id","status","stage_id","created_at","id");--> statement-breakpoint
-- hand-written
-- The pipeline board (decision 0099). Who moved a lead: the transaction's actor (an API key, a
-- rule, a provider, the board's user), else the request's caller the resource layer names for
-- the statement, else the system.
CREATE FUNCTION mostrador_lead_actor() RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT coalesce(nullif(current_setting('mostrador.actor', true), '')::jsonb, nullif(current_setting('mostrador.caller', true), '')::jsonb, '{"type":"system"}'::jsonb)
$$;--> statement-breakpoint
-- A lead's stage always maps onto its status: any writer that gives a lead another status (or a
-- stage of another status or company) leaves it in the new status's own column.
CREATE FUNCTION mostrador_lead_stage_check() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM lead_stages s WHERE s.id = NEW.stage_id AND s.company_id = NEW.company_id AND s.maps_to = NEW.status) THEN
    NEW.stage_id := NULL;
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER leads_stage_check BEFORE INSERT OR UPDATE ON leads FOR EACH ROW WHEN (NEW.stage_id IS NOT NULL) EXECUTE FUNCTION mostrador_lead_stage_check();--> statement-breakpoint
-- Entering a column: the history row and the column's count, in the change's own statement.
CREATE FUNCTION mostrador_lead_board_ins() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO lead_stage_history (company_id, lead_id, at, actor, to_status, to_stage_id)
  SELECT n.company_id, n.id, n.created_at, mostrador_lead_actor(), n.status, n.stage_id FROM new_rows n ORDER BY n.created_at, n.id;
  INSERT INTO lead_board_counts (company_id, status, stage_key, shard, n)
  SELECT company_id, status, coalesce(stage_id::text, ''), pg_backend_pid() % 64, count(*) FROM new_rows GROUP BY 1, 2, 3
  ON CONFLICT (company_id, status, stage_key, shard) DO UPDATE SET n = lead_board_counts.n + excluded.n;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION mostrador_lead_board_upd() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO lead_stage_history (company_id, lead_id, at, actor, from_status, from_stage_id, to_status, to_stage_id)
  SELECT n.company_id, n.id, clock_timestamp(), mostrador_lead_actor(), o.status, o.stage_id, n.status, n.stage_id
  FROM new_rows n JOIN old_rows o ON o.id = n.id
  WHERE o.status IS DISTINCT FROM n.status OR o.stage_id IS DISTINCT FROM n.stage_id
  ORDER BY n.id;
  INSERT INTO lead_board_counts (company_id, status, stage_key, shard, n)
  SELECT company_id, status, stage_key, pg_backend_pid() % 64, sum(d) FROM (
    SELECT o.company_id, o.status, coalesce(o.stage_id::text, '') AS stage_key, -1 AS d
    FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE o.status IS DISTINCT FROM n.status OR o.stage_id IS DISTINCT FROM n.stage_id
    UNION ALL
    SELECT n.company_id, n.status, coalesce(n.stage_id::text, ''), 1
    FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE o.status IS DISTINCT FROM n.status OR o.stage_id IS DISTINCT FROM n.stage_id
  ) c GROUP BY 1, 2, 3
  ON CONFLICT (company_id, status, stage_key, shard) DO UPDATE SET n = lead_board_counts.n + excluded.n;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION mostrador_lead_board_del() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO lead_board_counts (company_id, status, stage_key, shard, n)
  SELECT company_id, status, coalesce(stage_id::text, ''), pg_backend_pid() % 64, -count(*) FROM old_rows GROUP BY 1, 2, 3
  ON CONFLICT (company_id, status, stage_key, shard) DO UPDATE SET n = lead_board_counts.n + excluded.n;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER leads_board_ins AFTER INSERT ON leads REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_lead_board_ins();--> statement-breakpoint
CREATE TRIGGER leads_board_upd AFTER UPDATE ON leads REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_lead_board_upd();--> statement-breakpoint
CREATE TRIGGER leads_board_del AFTER DELETE ON leads REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_lead_board_del();--> statement-breakpoint
-- A stage that now maps onto another status gives its leads back to their status's own column.
CREATE FUNCTION mostrador_lead_stage_remapped() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE leads SET stage_id = NULL, updated_at = now() WHERE company_id = NEW.company_id AND stage_id = NEW.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER lead_stages_remapped AFTER UPDATE ON lead_stages FOR EACH ROW WHEN (OLD.maps_to IS DISTINCT FROM NEW.maps_to) EXECUTE FUNCTION mostrador_lead_stage_remapped();--> statement-breakpoint
-- The leads already there: their counts (no history: when they entered their status is not known).
INSERT INTO lead_board_counts (company_id, status, stage_key, shard, n)
SELECT company_id, status, '', 0, count(*) FROM leads GROUP BY company_id, status;
