/** The one user both session servers know, and the kernel's `UserService` over it. */
import type { User, UserService } from '@fw/kernel/auth';

export const ALICE: User = { id: 1, email: 'alice@example.test', emailVerified: true };

export const USERS: UserService = {
  findById: (id) => (String(id) === '1' ? ALICE : undefined),
  emailVerified: (u) => u.emailVerified,
  has2fa: () => false,
  isAdmin: () => false,
  roles: () => [],
  permissions: () => [],
};
