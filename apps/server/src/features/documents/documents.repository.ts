import type { DocumentType } from '@bdms/shared';
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { documents, users, type DocumentRow, type NewDocumentRow } from '../../db/schema';

export function createDocumentsRepository(db: Db) {
  return {
    async findById(id: string): Promise<DocumentRow | undefined> {
      const [row] = await db.select().from(documents).where(eq(documents.id, id)).limit(1);
      return row;
    },

    /** Locks the donor's document of this type (if any) until the transaction ends. */
    async findForReplace(userId: string, type: DocumentType): Promise<DocumentRow | undefined> {
      const [row] = await db
        .select()
        .from(documents)
        .where(and(eq(documents.userId, userId), eq(documents.type, type)))
        .for('update')
        .limit(1);
      return row;
    },

    async listByUser(userId: string): Promise<DocumentRow[]> {
      return db
        .select()
        .from(documents)
        .where(eq(documents.userId, userId))
        .orderBy(asc(documents.type));
    },

    async insert(row: NewDocumentRow): Promise<DocumentRow> {
      const [inserted] = await db.insert(documents).values(row).returning();
      if (!inserted) throw new Error('documents insert returned no row');
      return inserted;
    },

    async deleteById(id: string): Promise<void> {
      await db.delete(documents).where(eq(documents.id, id));
    },

    async setVerdict(
      id: string,
      verdict: Pick<DocumentRow, 'verified' | 'rejectionReason' | 'verifiedBy' | 'verifiedAt'>,
    ): Promise<DocumentRow | undefined> {
      const [row] = await db.update(documents).set(verdict).where(eq(documents.id, id)).returning();
      return row;
    },

    async findOwner(userId: string) {
      const [row] = await db
        .select({ id: users.id, role: users.role, deletedAt: users.deletedAt })
        .from(users)
        .where(eq(users.id, userId))
        .limit(1);
      return row;
    },
  };
}

export type DocumentsRepository = ReturnType<typeof createDocumentsRepository>;
