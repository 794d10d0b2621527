CREATE TABLE "metrics_ad_leads" (
	"company_id" uuid NOT NULL,
	"lead_id" uuid NOT NULL,
	"referral_id" uuid NOT NULL,
	"referred_at" timestamp with time zone NOT NULL,
	"day" date NOT NULL,
	"ad_id" text NOT NULL,
	"chats" integer NOT NULL,
	"orders" integer NOT NULL,
	CONSTRAINT "metrics_ad_leads_company_id_lead_id_pk" PRIMARY KEY("company_id","lead_id")
);
--> statement-breakpoint
CREATE TABLE "metrics_ads_daily" (
	"company_id" uuid NOT NULL,
	"day" date NOT NULL,
	"ad_id" text NOT NULL,
	"leads" integer NOT NULL,
	"chats" integer NOT NULL,
	"orders" integer NOT NULL,
	CONSTRAINT "metrics_ads_daily_company_id_day_ad_id_pk" PRIMARY KEY("company_id","day","ad_id")
);
--> statement-breakpoint
CREATE TABLE "metrics_ads_monthly" (
	"company_id" uuid NOT NULL,
	"month" date NOT NULL,
	"ad_id" text NOT NULL,
	"leads" integer NOT NULL,
	"chats" integer NOT NULL,
	"orders" integer NOT NULL,
	CONSTRAINT "metrics_ads_monthly_company_id_month_ad_id_pk" PRIMARY KEY("company_id","month","ad_id")
);
--> statement-breakpoint
ALTER TABLE "metrics_ad_leads" ADD CONSTRAINT "metrics_ad_leads_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "metrics_ads_daily" ADD CONSTRAINT "metrics_ads_daily_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "metrics_ads_monthly" ADD CONSTRAINT "metrics_ads_monthly_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint

-- Decision 0047: ad attribution from a rollup instead of lead_referrals, chats and orders per request.
--
-- metrics_ad_leads holds, for each lead whose first referral (earliest created_at, then id) names an
-- ad (referral.sourceId, else adId), that referral, its local day in the company's rollup zone, and
-- the lead's chats and orders that were not cancelled: exactly what the lead adds to
-- metrics_ads_daily (company × day × ad: leads, chats, orders) and metrics_ads_monthly.
-- * lead_referrals inserted, deleted or updated (a lead's deletion cascades to its referrals): the
--   leads they belong to are recomputed (mostrador_metrics_ad_refresh: the first referral from the
--   (company_id, lead_id, created_at) index, the chats and orders counted only when the first referral
--   changed) and the rollups move by the difference, so an earlier referral arriving later moves the
--   lead, and a deleted first referral hands it to the next one.
-- * chats and orders inserted, deleted, or moved to another lead (or an order into or out of
--   'cancelled'): their count is added to their lead's row when it has one, and to its day and month
--   (mostrador_metrics_ad_add). A lead without a row (no referral, or a first one without an ad) brings
--   nothing.
-- Statement triggers over transition tables for inserts and deletes (a batch is one statement), row
-- triggers with a WHEN for the updates that move a count, as in 0023. The ad's campaign is not here:
-- meta_ad_spend joins meta_ads when it reads (the insights sync rewrites it).
--
-- Concurrency: as every metrics writer, the company's metrics_companies row is share-locked
-- (mostrador_metrics_ensure; the rebuild locks it exclusively). A lead's row is recomputed from what the
-- transaction sees, so the writers of one lead are serialised on the lead's row (FOR NO KEY UPDATE,
-- taken in id order; it does not conflict with the foreign keys' KEY SHARE locks), and each statement
-- after the lock sees what the other committed: a chat written while another transaction gives its
-- lead a first referral is counted once, by the count of the one or the addition of the other.

-- Orders of a lead: counted when a lead's first referral changes.
CREATE INDEX IF NOT EXISTS "orders_company_lead_idx" ON "orders" USING btree ("company_id", "lead_id");--> statement-breakpoint

-- Recomputes the leads ls[i] of companies cs[i] and moves the rollups by the difference.
CREATE OR REPLACE FUNCTION mostrador_metrics_ad_refresh(cs uuid[], ls uuid[]) RETURNS void LANGUAGE plpgsql AS $$
declare
  fresh metrics_ad_leads[];
begin
  if cs is null then return; end if;
  perform mostrador_metrics_ensure(array(select distinct c from unnest(cs) c));
  perform 1 from leads where id = any(ls) order by id for no key update;
  -- each lead's first referral now, when it names an ad; its chats and orders carried over when it is
  -- the one already recorded, else counted
  fresh := array(
    select row(f.company_id, f.lead_id, f.id, f.created_at, (f.created_at at time zone mc.timezone)::date, f.ad_id,
               coalesce(o.chats, (select count(*)::int from chats c where c.company_id = f.company_id and c.lead_id = f.lead_id)),
               coalesce(o.orders, (select count(*)::int from orders x where x.company_id = f.company_id and x.lead_id = f.lead_id and x.status <> 'cancelled')))::metrics_ad_leads
      from (select distinct l.c, l.id from unnest(cs, ls) l(c, id)) l
      cross join lateral (select r.company_id, r.lead_id, r.id, r.created_at, coalesce(r.referral->>'sourceId', r.referral->>'adId') as ad_id
                            from lead_referrals r where r.company_id = l.c and r.lead_id = l.id order by r.created_at, r.id limit 1) f
      join companies co on co.id = f.company_id
      join metrics_companies mc on mc.company_id = f.company_id
      left join metrics_ad_leads o on o.company_id = f.company_id and o.lead_id = f.lead_id and o.referral_id = f.id
     where f.ad_id is not null);
  with delta as (
    select d.company_id, d.day, d.ad_id, sum(d.leads)::int as leads, sum(d.chats)::int as chats, sum(d.orders)::int as orders
      from (select o.company_id, o.day, o.ad_id, -1 as leads, -o.chats as chats, -o.orders as orders
              from metrics_ad_leads o join (select distinct l.c, l.id from unnest(cs, ls) l(c, id)) l on o.company_id = l.c and o.lead_id = l.id
            union all
            select n.company_id, n.day, n.ad_id, 1, n.chats, n.orders from unnest(fresh) n) d
      join companies co on co.id = d.company_id
     group by 1, 2, 3 having sum(d.leads) <> 0 or sum(d.chats) <> 0 or sum(d.orders) <> 0),
  dd as (insert into metrics_ads_daily as t (company_id, day, ad_id, leads, chats, orders)
         select company_id, day, ad_id, leads, chats, orders from delta order by 1, 2, 3
         on conflict (company_id, day, ad_id) do update set leads = t.leads + excluded.leads, chats = t.chats + excluded.chats, orders = t.orders + excluded.orders)
  insert into metrics_ads_monthly as t (company_id, month, ad_id, leads, chats, orders)
  select company_id, date_trunc('month', day)::date, ad_id, sum(leads), sum(chats), sum(orders) from delta
   group by 1, 2, 3 having sum(leads) <> 0 or sum(chats) <> 0 or sum(orders) <> 0 order by 1, 2, 3
  on conflict (company_id, month, ad_id) do update set leads = t.leads + excluded.leads, chats = t.chats + excluded.chats, orders = t.orders + excluded.orders;
  -- the leads' rows: gone when they no longer have an attributed first referral, else the new one
  delete from metrics_ad_leads o
   using (select l.c, l.id from unnest(cs, ls) l(c, id) except select n.company_id, n.lead_id from unnest(fresh) n) g
   where o.company_id = g.c and o.lead_id = g.id;
  insert into metrics_ad_leads as t (company_id, lead_id, referral_id, referred_at, day, ad_id, chats, orders)
  select n.company_id, n.lead_id, n.referral_id, n.referred_at, n.day, n.ad_id, n.chats, n.orders from unnest(fresh) n order by 1, 2
  on conflict (company_id, lead_id) do update
    set referral_id = excluded.referral_id, referred_at = excluded.referred_at, day = excluded.day, ad_id = excluded.ad_id, chats = excluded.chats, orders = excluded.orders
    where (t.referral_id, t.referred_at, t.day, t.ad_id, t.chats, t.orders) is distinct from (excluded.referral_id, excluded.referred_at, excluded.day, excluded.ad_id, excluded.chats, excluded.orders);
end $$;--> statement-breakpoint

-- Adds ns[i] chats (what = 'chats') or orders to the lead ls[i] of company cs[i], when the lead is attributed.
CREATE OR REPLACE FUNCTION mostrador_metrics_ad_add(what text, cs uuid[], ls uuid[], ns int[]) RETURNS void LANGUAGE plpgsql AS $$
begin
  if cs is null or not exists (select 1 from unnest(ls) l where l is not null) then return; end if;
  perform mostrador_metrics_ensure(array(select distinct c from unnest(cs) c where c is not null));
  perform 1 from leads where id = any(ls) order by id for no key update;
  with d as (select l.c, l.id, sum(l.n)::int as n from unnest(cs, ls, ns) l(c, id, n) where l.id is not null group by 1, 2 having sum(l.n) <> 0),
  u as (update metrics_ad_leads t
           set chats = t.chats + case when what = 'chats' then d.n else 0 end, orders = t.orders + case when what = 'orders' then d.n else 0 end
          from d where t.company_id = d.c and t.lead_id = d.id
        returning t.company_id, t.day, t.ad_id, d.n),
  g as (select u.company_id, u.day, u.ad_id, sum(u.n)::int as n from u join companies co on co.id = u.company_id group by 1, 2, 3 having sum(u.n) <> 0),
  dd as (insert into metrics_ads_daily as t (company_id, day, ad_id, leads, chats, orders)
         select company_id, day, ad_id, 0, case when what = 'chats' then n else 0 end, case when what = 'orders' then n else 0 end from g order by 1, 2, 3
         on conflict (company_id, day, ad_id) do update set chats = t.chats + excluded.chats, orders = t.orders + excluded.orders)
  insert into metrics_ads_monthly as t (company_id, month, ad_id, leads, chats, orders)
  select company_id, date_trunc('month', day)::date, ad_id, 0, sum(case when what = 'chats' then n else 0 end), sum(case when what = 'orders' then n else 0 end)
    from g group by 1, 2, 3 having sum(n) <> 0 order by 1, 2, 3
  on conflict (company_id, month, ad_id) do update set chats = t.chats + excluded.chats, orders = t.orders + excluded.orders;
end $$;--> statement-breakpoint

CREATE OR REPLACE FUNCTION mostrador_metrics_ad_referrals_stmt() RETURNS trigger LANGUAGE plpgsql AS $$
begin
  -- (each branch is planned the first time it runs, so the insert trigger never sees old_rows)
  if tg_op = 'INSERT' then
    perform mostrador_metrics_ad_refresh(array_agg(x.company_id), array_agg(x.lead_id)) from (select distinct company_id, lead_id from new_rows) x;
  else
    perform mostrador_metrics_ad_refresh(array_agg(x.company_id), array_agg(x.lead_id)) from (select distinct company_id, lead_id from old_rows) x;
  end if;
  return null;
end $$;--> statement-breakpoint

CREATE OR REPLACE FUNCTION mostrador_metrics_ad_referral_upd() RETURNS trigger LANGUAGE plpgsql AS $$
begin
  perform mostrador_metrics_ad_refresh(array[old.company_id, new.company_id], array[old.lead_id, new.lead_id]);
  return null;
end $$;--> statement-breakpoint

CREATE OR REPLACE FUNCTION mostrador_metrics_ad_chats_stmt() RETURNS trigger LANGUAGE plpgsql AS $$
begin
  if tg_op = 'INSERT' then
    perform mostrador_metrics_ad_add('chats', array_agg(x.company_id), array_agg(x.lead_id), array_agg(x.n))
       from (select company_id, lead_id, count(*)::int as n from new_rows where lead_id is not null group by 1, 2) x;
  else
    perform mostrador_metrics_ad_add('chats', array_agg(x.company_id), array_agg(x.lead_id), array_agg(-x.n))
       from (select company_id, lead_id, count(*)::int as n from old_rows where lead_id is not null group by 1, 2) x;
  end if;
  return null;
end $$;--> statement-breakpoint

CREATE OR REPLACE FUNCTION mostrador_metrics_ad_chat_upd() RETURNS trigger LANGUAGE plpgsql AS $$
begin
  perform mostrador_metrics_ad_add('chats', array[old.company_id, new.company_id], array[old.lead_id, new.lead_id], array[-1, 1]);
  return null;
end $$;--> statement-breakpoint

CREATE OR REPLACE FUNCTION mostrador_metrics_ad_orders_stmt() RETURNS trigger LANGUAGE plpgsql AS $$
begin
  if tg_op = 'INSERT' then
    perform mostrador_metrics_ad_add('orders', array_agg(x.company_id), array_agg(x.lead_id), array_agg(x.n))
       from (select company_id, lead_id, count(*)::int as n from new_rows where lead_id is not null and status <> 'cancelled' group by 1, 2) x;
  else
    perform mostrador_metrics_ad_add('orders', array_agg(x.company_id), array_agg(x.lead_id), array_agg(-x.n))
       from (select company_id, lead_id, count(*)::int as n from old_rows where lead_id is not null and status <> 'cancelled' group by 1, 2) x;
  end if;
  return null;
end $$;--> statement-breakpoint

CREATE OR REPLACE FUNCTION mostrador_metrics_ad_order_upd() RETURNS trigger LANGUAGE plpgsql AS $$
begin
  perform mostrador_metrics_ad_add('orders', array[old.company_id, new.company_id], array[old.lead_id, new.lead_id],
                                   array[-(old.status <> 'cancelled')::int, (new.status <> 'cancelled')::int]);
  return null;
end $$;--> statement-breakpoint

CREATE TRIGGER "metrics_ads_lead_referrals_ins" AFTER INSERT ON "lead_referrals" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_metrics_ad_referrals_stmt();--> statement-breakpoint
CREATE TRIGGER "metrics_ads_lead_referrals_del" AFTER DELETE ON "lead_referrals" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_metrics_ad_referrals_stmt();--> statement-breakpoint
CREATE TRIGGER "metrics_ads_lead_referrals_upd" AFTER UPDATE ON "lead_referrals" FOR EACH ROW
  WHEN (old.lead_id IS DISTINCT FROM new.lead_id OR old.company_id IS DISTINCT FROM new.company_id OR old.created_at IS DISTINCT FROM new.created_at
        OR old.referral IS DISTINCT FROM new.referral)
  EXECUTE FUNCTION mostrador_metrics_ad_referral_upd();--> statement-breakpoint
CREATE TRIGGER "metrics_ads_chats_ins" AFTER INSERT ON "chats" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_metrics_ad_chats_stmt();--> statement-breakpoint
CREATE TRIGGER "metrics_ads_chats_del" AFTER DELETE ON "chats" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_metrics_ad_chats_stmt();--> statement-breakpoint
CREATE TRIGGER "metrics_ads_chats_upd" AFTER UPDATE ON "chats" FOR EACH ROW
  WHEN (old.lead_id IS DISTINCT FROM new.lead_id OR old.company_id IS DISTINCT FROM new.company_id)
  EXECUTE FUNCTION mostrador_metrics_ad_chat_upd();--> statement-breakpoint
CREATE TRIGGER "metrics_ads_orders_ins" AFTER INSERT ON "orders" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_metrics_ad_orders_stmt();--> statement-breakpoint
CREATE TRIGGER "metrics_ads_orders_del" AFTER DELETE ON "orders" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_metrics_ad_orders_stmt();--> statement-breakpoint
CREATE TRIGGER "metrics_ads_orders_upd" AFTER UPDATE ON "orders" FOR EACH ROW
  WHEN ((old.status = 'cancelled') IS DISTINCT FROM (new.status = 'cancelled') OR old.lead_id IS DISTINCT FROM new.lead_id OR old.company_id IS DISTINCT FROM new.company_id)
  EXECUTE FUNCTION mostrador_metrics_ad_order_upd();--> statement-breakpoint

-- From scratch, for one company, in its rollup zone (metrics_companies, locked until commit).
CREATE OR REPLACE FUNCTION mostrador_metrics_ad_rebuild(company uuid) RETURNS void LANGUAGE plpgsql AS $$
declare
  tz text;
begin
  select m.timezone into tz from metrics_companies m where m.company_id = company for update;
  delete from metrics_ad_leads where company_id = company;
  delete from metrics_ads_daily where company_id = company;
  delete from metrics_ads_monthly where company_id = company;
  if tz is null then return; end if;
  insert into metrics_ad_leads (company_id, lead_id, referral_id, referred_at, day, ad_id, chats, orders)
  select f.company_id, f.lead_id, f.id, f.created_at, (f.created_at at time zone tz)::date, f.ad_id, coalesce(c.n, 0), coalesce(o.n, 0)
    from (select distinct on (r.lead_id) r.company_id, r.lead_id, r.id, r.created_at, coalesce(r.referral->>'sourceId', r.referral->>'adId') as ad_id
            from lead_referrals r where r.company_id = company order by r.lead_id, r.created_at, r.id) f
    left join (select lead_id, count(*) as n from chats where company_id = company and lead_id is not null group by 1) c on c.lead_id = f.lead_id
    left join (select lead_id, count(*) as n from orders where company_id = company and lead_id is not null and status <> 'cancelled' group by 1) o on o.lead_id = f.lead_id
   where f.ad_id is not null;
  insert into metrics_ads_daily (company_id, day, ad_id, leads, chats, orders)
  select company, day, ad_id, count(*), sum(chats), sum(orders) from metrics_ad_leads where company_id = company group by 2, 3;
  insert into metrics_ads_monthly (company_id, month, ad_id, leads, chats, orders)
  select company, date_trunc('month', day)::date, ad_id, sum(leads), sum(chats), sum(orders) from metrics_ads_daily where company_id = company group by 2, 3;
end $$;--> statement-breakpoint

-- 0026's rebuild, and the attribution's.
CREATE OR REPLACE FUNCTION mostrador_metrics_rebuild(company uuid, tz text) RETURNS void LANGUAGE plpgsql AS $$
declare
  tbl text;
begin
  insert into metrics_companies (company_id, timezone, rebuilt_at) values (company, tz, now())
  on conflict (company_id) do update set timezone = excluded.timezone, rebuilt_at = excluded.rebuilt_at;
  delete from metrics_messages_daily where company_id = company;
  delete from metrics_chat_months where company_id = company;
  delete from metrics_entities_daily where company_id = company;
  delete from metrics_analyses_daily where company_id = company;
  delete from metrics_sales_daily where company_id = company;
  delete from metrics_coverage_monthly where company_id = company;
  delete from metrics_analyses_monthly where company_id = company;
  foreach tbl in array array['chat_messages', 'chat_analyses', 'orders', 'chats', 'leads', 'clean_leads', 'memberships'] loop
    execute mostrador_metrics_sql(tbl, format('(select * from %I where company_id = %L)', tbl, company), 1);
  end loop;
  perform mostrador_metrics_ad_rebuild(company);
end $$;--> statement-breakpoint

-- what happened before this migration
SELECT mostrador_metrics_ad_rebuild(company_id) FROM metrics_companies;
