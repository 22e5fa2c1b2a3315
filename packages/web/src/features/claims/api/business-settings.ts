import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BusinessSettings } from '@lot/domain/schemas/claims';
import { api } from '../../../lib/api-client.ts';

export const businessSettingsKey = ['admin', 'business-settings'] as const;

/** GET /api/admin/business-settings (admin): the claim period and who may pay a prize. */
export const getBusinessSettings = () => api<BusinessSettings>('/api/admin/business-settings');

export function useBusinessSettings() {
  return useQuery({ queryKey: businessSettingsKey, queryFn: getBusinessSettings });
}

export const saveBusinessSettings = (settings: BusinessSettings) =>
  api<BusinessSettings>('/api/admin/business-settings', { method: 'PUT', body: settings });

export function useSaveBusinessSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveBusinessSettings,
    onSuccess: (saved) => queryClient.setQueryData(businessSettingsKey, saved),
  });
}
