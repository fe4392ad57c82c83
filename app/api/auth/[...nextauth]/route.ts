import NextAuth from 'next-auth';
import { authOptions } from '@/lib/auth/options';
import { getServices } from '@/lib/root/services';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ nextauth: string[] }> };

// Built per request, not at import: `next build` imports this module, and the options read the
// configuration (NEXTAUTH_SECRET is required in production).
async function handler(req: Request, context: Context) {
  return NextAuth(authOptions(await getServices()))(req, context);
}

export { handler as GET, handler as POST };
