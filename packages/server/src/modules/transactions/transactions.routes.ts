import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  exportHeaders,
  exportResponse,
  moneyHeader,
  type ResponseHeader,
  totalCountHeader,
} from '../../plugins/docs.ts';
import { errorResponses } from '../../plugins/errors.ts';
import { z } from 'zod';
import { listTransactionsQuerySchema, transactionSchema } from '@lot/domain/schemas/balance';
import { exportFields } from '@lot/domain/schemas/exports';
import { exportFileName, sendExport } from '../../lib/export.ts';
import { listTransactions, TRANSACTION_EXPORT_COLUMNS, transactionExportPages } from './transactions.service.ts';
import { sendPage } from '../../lib/page.ts';

/** The whole filtered set's count and money, beside the page of rows. */
const transactionListHeaders: Record<number, Record<string, ResponseHeader>> = {
  200: {
    ...totalCountHeader,
    'X-Total-Amount': moneyHeader('Every amount of the filtered set added up.'),
    'X-Total-In': moneyHeader("Money into the balances in view (the caller's own, or everyone's for the admin)."),
    'X-Total-Out': moneyHeader('Money out of the balances in view.'),
    'X-Total-Net': moneyHeader('In minus out.'),
  },
};

export const transactionsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/api/transactions',
    {
      schema: {
        tags: ['transactions'],
        operationId: 'listTransactions',
        responseHeaders: transactionListHeaders,
        description:
          "The caller's ledger rows, newest first. The whole filtered set's totals are in headers: X-Total-Count, X-Total-Amount (every amount), X-Total-In, X-Total-Out and X-Total-Net (money in and out of the balances in view, as the rows are signed).",
        querystring: listTransactionsQuerySchema,
        response: { 200: z.array(transactionSchema), ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      const page = await listTransactions(request.ctx, request.query);
      // The whole filtered set, not the page: its volume (the admin dashboard's Transaction
      // Volume) and its money in, out and net (the transactions screens' totals).
      const { totalAmount, totalIn, totalOut, net } = page;
      const totals = {
        'X-Total-Amount': totalAmount,
        'X-Total-In': totalIn,
        'X-Total-Out': totalOut,
        'X-Total-Net': net,
      };
      return sendPage(reply, page, { totals });
    },
  );

  app.get(
    '/api/transactions/export',
    {
      schema: {
        tags: ['transactions'],
        operationId: 'exportTransactions',
        description:
          "The caller's filtered ledger rows as a CSV or Excel file, every row, newest first (docs/product/reports.md#exports).",
        querystring: listTransactionsQuerySchema.omit({ limit: true, offset: true }).extend(exportFields),
        response: { ...exportResponse, ...errorResponses(400, 401) },
        responseHeaders: exportHeaders,
      },
    },
    async (request, reply) => {
      const { format, tz, ...query } = request.query;
      return sendExport(reply, format, tz ?? 'UTC', {
        fileName: exportFileName('transactions', query, tz, request.ctx.clock()),
        columns: TRANSACTION_EXPORT_COLUMNS,
        pages: transactionExportPages(request.ctx, query),
      });
    },
  );
};
