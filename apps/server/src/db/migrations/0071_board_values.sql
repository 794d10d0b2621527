CREATE TABLE "lead_board_values" (
	"company_id" uuid NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"stage_key" text NOT NULL,
	"shard" smallint DEFAULT 0 NOT NULL,
	"total" numeric NOT NULL,
	CONSTRAINT "lead_board_values_company_id_currency_status_stage_key_shard_pk" PRIMARY KEY("company_id","currency","status","stage_key","shard")
);
--> statement-breakpoint
-- hand-written
-- Open orders' value per board column (decision 0099): what an order adds to its lead's column is
-- its total while it is open (created, paid, shipped) and has a lead. The order triggers read
-- the leads they price FOR SHARE (the row's newest version, after waiting for a move under
-- way), so a lead moved at the same time is either moved first (the order is then priced at the
-- new column) or after (the move then carries the committed order): nothing is left in a column
-- its lead has left. One statement each, none when no open value changed.
CREATE FUNCTION mostrador_order_board_value_ins() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH d AS (SELECT company_id, lead_id, currency, total::numeric AS v FROM new_rows WHERE lead_id IS NOT NULL AND status IN ('created', 'paid', 'shipped')),
  l AS (SELECT l.company_id, l.id, l.status, l.stage_id FROM leads l WHERE l.id IN (SELECT lead_id FROM d) FOR SHARE OF l)
  INSERT INTO lead_board_values (company_id, currency, status, stage_key, shard, total)
  SELECT l.company_id, d.currency, l.status, coalesce(l.stage_id::text, ''), pg_backend_pid() % 64, sum(d.v)
  FROM d JOIN l ON l.company_id = d.company_id AND l.id = d.lead_id
  GROUP BY 1, 2, 3, 4 HAVING sum(d.v) <> 0
  ON CONFLICT (company_id, currency, status, stage_key, shard) DO UPDATE SET total = lead_board_values.total + excluded.total;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION mostrador_order_board_value_upd() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH d AS (
      -- only the orders whose open value changed: opened, closed, or an open one's total, currency or lead
      SELECT o.company_id, o.lead_id, o.currency, -o.total::numeric AS v FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE o.lead_id IS NOT NULL AND o.status IN ('created', 'paid', 'shipped') AND NOT (n.status IN ('created', 'paid', 'shipped') AND (n.lead_id, n.currency, n.total, n.company_id) IS NOT DISTINCT FROM (o.lead_id, o.currency, o.total, o.company_id))
      UNION ALL
      SELECT n.company_id, n.lead_id, n.currency, n.total::numeric FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE n.lead_id IS NOT NULL AND n.status IN ('created', 'paid', 'shipped') AND NOT (o.status IN ('created', 'paid', 'shipped') AND (n.lead_id, n.currency, n.total, n.company_id) IS NOT DISTINCT FROM (o.lead_id, o.currency, o.total, o.company_id))),
  l AS (SELECT l.company_id, l.id, l.status, l.stage_id FROM leads l WHERE l.id IN (SELECT lead_id FROM d) FOR SHARE OF l)
  INSERT INTO lead_board_values (company_id, currency, status, stage_key, shard, total)
  SELECT l.company_id, d.currency, l.status, coalesce(l.stage_id::text, ''), pg_backend_pid() % 64, sum(d.v)
  FROM d JOIN l ON l.company_id = d.company_id AND l.id = d.lead_id
  GROUP BY 1, 2, 3, 4 HAVING sum(d.v) <> 0
  ON CONFLICT (company_id, currency, status, stage_key, shard) DO UPDATE SET total = lead_board_values.total + excluded.total;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION mostrador_order_board_value_del() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH d AS (SELECT company_id, lead_id, currency, -total::numeric AS v FROM old_rows WHERE lead_id IS NOT NULL AND status IN ('created', 'paid', 'shipped')),
  l AS (SELECT l.company_id, l.id, l.status, l.stage_id FROM leads l WHERE l.id IN (SELECT lead_id FROM d) FOR SHARE OF l)
  INSERT INTO lead_board_values (company_id, currency, status, stage_key, shard, total)
  SELECT l.company_id, d.currency, l.status, coalesce(l.stage_id::text, ''), pg_backend_pid() % 64, sum(d.v)
  FROM d JOIN l ON l.company_id = d.company_id AND l.id = d.lead_id
  GROUP BY 1, 2, 3, 4 HAVING sum(d.v) <> 0
  ON CONFLICT (company_id, currency, status, stage_key, shard) DO UPDATE SET total = lead_board_values.total + excluded.total;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER orders_board_value_ins AFTER INSERT ON orders REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_order_board_value_ins();--> statement-breakpoint
CREATE TRIGGER orders_board_value_upd AFTER UPDATE ON orders REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_order_board_value_upd();--> statement-breakpoint
CREATE TRIGGER orders_board_value_del AFTER DELETE ON orders REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_order_board_value_del();--> statement-breakpoint
-- A lead moving carries its open orders' value from the column it left to the one it entered;
-- a lead deleted takes it away (its orders stay, without a column).
CREATE FUNCTION mostrador_lead_board_value_move() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO lead_board_values (company_id, currency, status, stage_key, shard, total)
  SELECT company_id, currency, status, stage_key, pg_backend_pid() % 64, sum(v) FROM (
    SELECT m.company_id, x.currency, s.status, s.stage_key, s.sign * x.v AS v
    FROM (SELECT n.company_id, n.id, o.status AS from_status, coalesce(o.stage_id::text, '') AS from_stage, n.status AS to_status, coalesce(n.stage_id::text, '') AS to_stage
          FROM new_rows n JOIN old_rows o ON o.id = n.id
          WHERE o.status IS DISTINCT FROM n.status OR o.stage_id IS DISTINCT FROM n.stage_id) m
    CROSS JOIN LATERAL (SELECT r.currency, sum(r.total::numeric) AS v FROM orders r
                        WHERE r.company_id = m.company_id AND r.lead_id = m.id AND r.status IN ('created', 'paid', 'shipped') GROUP BY r.currency) x
    CROSS JOIN LATERAL (VALUES (m.from_status, m.from_stage, -1), (m.to_status, m.to_stage, 1)) s (status, stage_key, sign)
  ) d GROUP BY company_id, currency, status, stage_key HAVING sum(v) <> 0
  ON CONFLICT (company_id, currency, status, stage_key, shard) DO UPDATE SET total = lead_board_values.total + excluded.total;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION mostrador_lead_board_value_gone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO lead_board_values (company_id, currency, status, stage_key, shard, total)
  SELECT g.company_id, r.currency, g.status, coalesce(g.stage_id::text, ''), pg_backend_pid() % 64, -sum(r.total::numeric)
  FROM old_rows g JOIN orders r ON r.company_id = g.company_id AND r.lead_id = g.id AND r.status IN ('created', 'paid', 'shipped')
  GROUP BY 1, 2, 3, 4
  ON CONFLICT (company_id, currency, status, stage_key, shard) DO UPDATE SET total = lead_board_values.total + excluded.total;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER leads_board_value_upd AFTER UPDATE ON leads REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_lead_board_value_move();--> statement-breakpoint
CREATE TRIGGER leads_board_value_del AFTER DELETE ON leads REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_lead_board_value_gone();--> statement-breakpoint
-- The orders already there.
INSERT INTO lead_board_values (company_id, currency, status, stage_key, shard, total)
SELECT l.company_id, r.currency, l.status, coalesce(l.stage_id::text, ''), 0, sum(r.total::numeric)
FROM orders r JOIN leads l ON l.company_id = r.company_id AND l.id = r.lead_id
WHERE r.status IN ('created', 'paid', 'shipped')
GROUP BY 1, 2, 3, 4;
