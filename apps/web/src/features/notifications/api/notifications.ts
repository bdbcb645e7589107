import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ChannelConsent,
  ChannelConsents,
  MessageLanguage,
  NotificationPage,
  PhoneChannel,
} from '@bdms/shared';
import { api, apiRequest } from '../../../lib/api-client';

/** Everything under `['notifications']`: one invalidation refreshes the list and the badge. */
export const notificationKeys = {
  all: ['notifications'] as const,
  page: (page: number, pageSize: number) => ['notifications', 'page', page, pageSize] as const,
  unread: ['notifications', 'unread'] as const,
};

/** `GET /notifications?page=&pageSize=`: newest first, with `unread` over all pages. */
export function fetchNotifications(page: number, pageSize: number, signal?: AbortSignal) {
  return api.get<NotificationPage>('/notifications', { query: { page, pageSize }, signal });
}

export function useNotifications(page: number, pageSize: number) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: notificationKeys.page(page, pageSize),
    queryFn: async ({ signal }) => {
      const result = await fetchNotifications(page, pageSize, signal);
      // The header badge reads the same count: keep it in step without another call.
      queryClient.setQueryData(notificationKeys.unread, result.unread);
      return result;
    },
    placeholderData: keepPreviousData,
  });
}

/** Marks one read at once on screen, then tells the server (`POST /notifications/{id}/read`). */
export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post(`/notifications/${encodeURIComponent(id)}/read`),
    onMutate: async (id) => {
      await queryClient.cancelQueries({ queryKey: notificationKeys.all });
      const readAt = new Date().toISOString();
      let wasUnread = false;
      queryClient.setQueriesData<NotificationPage>(
        { queryKey: ['notifications', 'page'] },
        (page) => {
          if (!page) return page;
          const isUnreadHere = page.items.some((item) => item.id === id && !item.readAt);
          if (!isUnreadHere) return page;
          wasUnread = true;
          return {
            ...page,
            unread: Math.max(0, page.unread - 1),
            items: page.items.map((item) => (item.id === id ? { ...item, readAt } : item)),
          };
        },
      );
      if (wasUnread) {
        queryClient.setQueryData<number>(notificationKeys.unread, (count) =>
          count ? Math.max(0, count - 1) : count,
        );
      }
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationKeys.all }),
  });
}

/** `POST /notifications/read-all`. */
export function useMarkAllRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<{ updated: number }>('/notifications/read-all'),
    onSuccess: () => {
      queryClient.setQueryData(notificationKeys.unread, 0);
      return queryClient.invalidateQueries({ queryKey: notificationKeys.all });
    },
  });
}

/** `POST /notifications/push-subscription {subscription}`. */
export function savePushSubscription(subscription: PushSubscriptionJSON) {
  return api.post<{ subscribed: boolean }>('/notifications/push-subscription', { subscription });
}

/** `DELETE /notifications/push-subscription {subscription: {endpoint}}`. */
export function deletePushSubscription(endpoint: string) {
  return apiRequest<{ subscribed: boolean }>('/notifications/push-subscription', {
    method: 'DELETE',
    body: { subscription: { endpoint } },
  });
}

const channelKeys = ['notification-channels'] as const;

/** `GET /notifications/channels`: consent to alerts by SMS and WhatsApp. */
export function useChannelConsents() {
  return useQuery({
    queryKey: channelKeys,
    queryFn: () => api.get<ChannelConsents>('/notifications/channels'),
  });
}

/** `PUT /notifications/channels/{channel}`: records the wording shown in `language`. */
export function useUpdateChannelConsent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { channel: PhoneChannel; consent: boolean; language: MessageLanguage }) =>
      api.put<{ channel: ChannelConsent }>(
        `/notifications/channels/${encodeURIComponent(input.channel)}`,
        { consent: input.consent, language: input.language },
      ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: channelKeys }),
  });
}
