CREATE TABLE "balances" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"amount" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "balances_amount_ck" CHECK ("balances"."amount" >= 0)
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"user_id" integer NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"status_code" integer NOT NULL,
	"response" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_pk" PRIMARY KEY("user_id","key")
);
--> statement-breakpoint
CREATE TABLE "signin_failures" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "signin_failures_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"username" text NOT NULL,
	"address" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transactions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "transactions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"type" text NOT NULL,
	"user_id" integer NOT NULL,
	"receiver_id" integer,
	"actor_id" integer NOT NULL,
	"amount" bigint NOT NULL,
	"status" text DEFAULT 'completed' NOT NULL,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "transactions_amount_ck" CHECK ("transactions"."amount" > 0),
	CONSTRAINT "transactions_type_ck" CHECK ("transactions"."type" IN ('topup', 'transfer', 'decrease', 'game'))
);
--> statement-breakpoint
CREATE TABLE "user_logos" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"mime_type" text NOT NULL,
	"data" "bytea" NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "users_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"username" text NOT NULL,
	"password_hash" text NOT NULL,
	"full_name" text NOT NULL,
	"shop_name" text,
	"role" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"parent_id" integer,
	"parent_role" text,
	"has_logo" boolean DEFAULT false NOT NULL,
	"token_version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "users_id_role_uq" UNIQUE("id","role"),
	CONSTRAINT "users_role_ck" CHECK ("users"."role" IN ('admin', 'superagent', 'agent', 'user')),
	CONSTRAINT "users_status_ck" CHECK ("users"."status" IN ('active', 'inactive')),
	CONSTRAINT "users_parent_pair_ck" CHECK (("users"."parent_id" IS NULL) = ("users"."parent_role" IS NULL)),
	CONSTRAINT "users_parent_role_ck" CHECK (CASE "users"."role"
        WHEN 'admin' THEN "users"."parent_id" IS NULL
        WHEN 'superagent' THEN "users"."parent_id" IS NULL
        WHEN 'agent' THEN "users"."parent_role" = 'superagent'
        ELSE "users"."parent_role" IS NULL OR "users"."parent_role" IN ('superagent', 'agent')
      END),
	CONSTRAINT "users_not_own_parent_ck" CHECK ("users"."parent_id" IS NULL OR "users"."parent_id" <> "users"."id")
);
--> statement-breakpoint
ALTER TABLE "balances" ADD CONSTRAINT "balances_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_receiver_id_users_id_fk" FOREIGN KEY ("receiver_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_logos" ADD CONSTRAINT "user_logos_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_parent_fk" FOREIGN KEY ("parent_id","parent_role") REFERENCES "public"."users"("id","role") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "signin_failures_lookup_idx" ON "signin_failures" USING btree ("username","address","created_at");--> statement-breakpoint
CREATE INDEX "transactions_user_idx" ON "transactions" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "transactions_receiver_idx" ON "transactions" USING btree ("receiver_id","created_at");--> statement-breakpoint
CREATE INDEX "transactions_created_idx" ON "transactions" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_live_uq" ON "users" USING btree (lower("username")) WHERE "users"."deleted_at" IS NULL;--> statement-breakpoint
CREATE INDEX "users_parent_idx" ON "users" USING btree ("parent_id","role");--> statement-breakpoint
CREATE INDEX "users_role_idx" ON "users" USING btree ("role","id");