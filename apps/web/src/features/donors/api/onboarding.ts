import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  DocumentListResult,
  DocumentResult,
  DocumentType,
  OnboardingStatus,
  QuestionnaireAnswers,
  QuestionnaireResult,
} from '@bdms/shared';
import { api } from '../../../lib/api-client';
import { apiUpload, type UploadProgress } from '../../../lib/api-upload';
import { donorKeys } from './keys';

const user = (userId: string) => `/users/${encodeURIComponent(userId)}`;

/** `GET /users/{id}/onboarding-status`: steps, whether an ID proof is required, a rejection. */
export function useOnboardingStatus(userId: string) {
  return useQuery({
    queryKey: donorKeys.onboardingStatus(userId),
    queryFn: ({ signal }) =>
      api.get<OnboardingStatus>(`${user(userId)}/onboarding-status`, { signal }),
  });
}

/** `GET /documents/list?userId=`: the donor's documents with their verification status. */
export function useDocuments(userId: string) {
  return useQuery({
    queryKey: donorKeys.documents(userId),
    queryFn: async ({ signal }) =>
      (await api.get<DocumentListResult>('/documents/list', { query: { userId }, signal }))
        .documents,
  });
}

/** `GET /users/{id}/questionnaire`: null until answered. */
export function useQuestionnaire(userId: string) {
  return useQuery({
    queryKey: donorKeys.questionnaire(userId),
    queryFn: async ({ signal }) =>
      (await api.get<QuestionnaireResult>(`${user(userId)}/questionnaire`, { signal }))
        .questionnaire,
  });
}

export interface UploadDocumentInput {
  type: DocumentType;
  file: File;
  onProgress?: (progress: UploadProgress) => void;
}

/**
 * `POST /documents` (multipart `type`, `file`). The server replaces a pending or rejected
 * document of the same type, and a rejected donor who uploads goes back to pending.
 */
export function useUploadDocument(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ type, file, onProgress }: UploadDocumentInput) => {
      const body = new FormData();
      // `type` first: the server reads the fields in order.
      body.append('type', type);
      body.append('file', file, file.name);
      return apiUpload<DocumentResult>('/documents', body, { onProgress });
    },
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: donorKeys.documents(userId) }),
        queryClient.invalidateQueries({ queryKey: donorKeys.onboardingStatus(userId) }),
      ]),
  });
}

/** `PUT /users/{id}/questionnaire {answers}` → the answers with the server's verdict. */
export function useSaveQuestionnaire(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (answers: QuestionnaireAnswers) =>
      (await api.put<QuestionnaireResult>(`${user(userId)}/questionnaire`, { answers }))
        .questionnaire,
    onSuccess: async (questionnaire) => {
      queryClient.setQueryData(donorKeys.questionnaire(userId), questionnaire);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: donorKeys.onboardingStatus(userId) }),
        queryClient.invalidateQueries({ queryKey: donorKeys.stats(userId) }),
      ]);
    },
  });
}
