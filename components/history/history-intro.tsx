/**
 * The first thing a newcomer reads on the History page: what the local history is and what it buys.
 */
export function HistoryIntro({ className }: { className?: string }) {
  return (
    <div className={className}>
      <p>
        The local history is a copy, kept on this dashboard&rsquo;s server, of your account&rsquo;s{' '}
        <strong>settled days</strong>: days old enough that their records no longer change. It is made in the background
        with calls nobody was using, and never with the calls kept for searches.
      </p>
      <p>
        Searches over complete days cost <strong>no call</strong> and answer at once. There, and only there, you can
        also search free text (any part of a message, Japanese included), find a number by its last digits, and sort the
        whole result by any column.
      </p>
    </div>
  );
}
