ALTER TABLE "resource_counts" ADD COLUMN "shard" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "resource_counts" DROP CONSTRAINT "resource_counts_company_id_resource_pk";--> statement-breakpoint
ALTER TABLE "resource_counts" ADD CONSTRAINT "resource_counts_company_id_resource_shard_pk" PRIMARY KEY("company_id","resource","shard");
