-- Custom SQL migration file, put your code below! --
-- Business minutes (issue 29, decision 0082): the open minutes between two instants, the same as
-- the contract's businessMinutesBetween. `hours` is {zone, schedule: {mon: [{start, end}], …},
-- holidays: [{date}]} as business_hours keeps it. Both instants are taken down to their second;
-- the answer is the open seconds / 60 (numeric, exact). Each local day of the span (from the day
-- before the first: 24:00 ends on the next date) gives its intervals, unless it is a holiday; an
-- interval is the real time between `date + start` and `date + end` read `at time zone` the
-- company's zone (PostgreSQL's reading of times a summer time change makes missing or twice).
CREATE OR REPLACE FUNCTION mostrador_business_minutes(hours jsonb, from_at timestamptz, to_at timestamptz) RETURNS numeric
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  WITH span AS (
    SELECT date_trunc('second', from_at) AS f, date_trunc('second', to_at) AS t, hours->>'zone' AS zone
  ), days AS (
    SELECT s.f, s.t, s.zone, ((s.f AT TIME ZONE s.zone)::date - 1 + k) AS d
    FROM span s, generate_series(0, (s.t AT TIME ZONE s.zone)::date - (s.f AT TIME ZONE s.zone)::date + 1) AS k
    WHERE s.f < s.t
  ), open AS (
    SELECT days.f, days.t,
      (days.d + (split_part(i->>'start', ':', 1)::int * 60 + split_part(i->>'start', ':', 2)::int) * interval '1 minute') AT TIME ZONE days.zone AS s,
      (days.d + (split_part(i->>'end', ':', 1)::int * 60 + split_part(i->>'end', ':', 2)::int) * interval '1 minute') AT TIME ZONE days.zone AS e
    FROM days
    CROSS JOIN LATERAL jsonb_array_elements(coalesce(hours->'schedule'->((ARRAY['mon','tue','wed','thu','fri','sat','sun'])[extract(isodow FROM days.d)::int]), '[]'::jsonb)) AS i
    WHERE NOT coalesce(hours->'holidays', '[]'::jsonb) @> jsonb_build_array(jsonb_build_object('date', to_char(days.d::timestamp, 'YYYY-MM-DD')))
  )
  SELECT coalesce(sum(greatest(0, extract(epoch FROM least(open.t, open.e)) - extract(epoch FROM greatest(open.f, open.s)))), 0) / 60
  FROM open
$$;
--> statement-breakpoint
-- The company's: its own business_hours row (team_id null; a team's hours are its own, decision 0081), or — none saved — always open (decision 0078), the plain minutes between.
CREATE OR REPLACE FUNCTION mostrador_business_minutes(company uuid, from_at timestamptz, to_at timestamptz) RETURNS numeric
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT coalesce(
    (SELECT mostrador_business_minutes(jsonb_build_object('zone', b.zone, 'schedule', b.schedule, 'holidays', b.holidays), from_at, to_at)
     FROM business_hours b WHERE b.company_id = company AND b.team_id IS NULL),
    greatest(0, extract(epoch FROM date_trunc('second', to_at)) - extract(epoch FROM date_trunc('second', from_at))) / 60
  )
$$;
