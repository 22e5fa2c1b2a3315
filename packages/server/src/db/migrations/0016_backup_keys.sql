CREATE TABLE "backup_keys" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "backup_keys_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"key_hash" text NOT NULL,
	"hint" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer NOT NULL,
	"last_used_at" timestamp with time zone,
	"last_used_address" text,
	"revoked_at" timestamp with time zone,
	"revoked_by" integer,
	CONSTRAINT "backup_keys_key_hash_uq" UNIQUE("key_hash"),
	CONSTRAINT "backup_keys_name_ck" CHECK (char_length("backup_keys"."name") BETWEEN 1 AND 60),
	CONSTRAINT "backup_keys_revoked_ck" CHECK (("backup_keys"."revoked_at" IS NULL) = ("backup_keys"."revoked_by" IS NULL))
);
--> statement-breakpoint
ALTER TABLE "backup_keys" ADD CONSTRAINT "backup_keys_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "backup_keys" ADD CONSTRAINT "backup_keys_revoked_by_users_id_fk" FOREIGN KEY ("revoked_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "backup_keys_live_name_uq" ON "backup_keys" USING btree (lower("name")) WHERE "backup_keys"."revoked_at" IS NULL;