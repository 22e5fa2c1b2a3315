CREATE TABLE "claim_code_failures" (
	"user_id" integer NOT NULL,
	"winner_id" integer NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"window_at" timestamp with time zone,
	"strikes" integer DEFAULT 0 NOT NULL,
	"blocked_until" timestamp with time zone,
	"last_outcome" text NOT NULL,
	CONSTRAINT "claim_code_failures_pk" PRIMARY KEY("user_id","winner_id")
);
--> statement-breakpoint
ALTER TABLE "prize_claims" ADD COLUMN "approved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "prize_claims" ADD COLUMN "approved_by" integer;--> statement-breakpoint
ALTER TABLE "prize_claims" ADD COLUMN "approved_claimer_id" text;--> statement-breakpoint
ALTER TABLE "claim_code_failures" ADD CONSTRAINT "claim_code_failures_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_code_failures" ADD CONSTRAINT "claim_code_failures_winner_id_prize_claims_winner_id_fk" FOREIGN KEY ("winner_id") REFERENCES "public"."prize_claims"("winner_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prize_claims" ADD CONSTRAINT "prize_claims_approved_by_users_id_fk" FOREIGN KEY ("approved_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prize_claims" ADD CONSTRAINT "prize_claims_approved_ck" CHECK (("prize_claims"."approved_at" IS NULL) = ("prize_claims"."approved_by" IS NULL)
        AND ("prize_claims"."approved_at" IS NULL) = ("prize_claims"."approved_claimer_id" IS NULL)
        AND ("prize_claims"."approved_at" IS NULL OR "prize_claims"."entry_code" IS NULL));