import { dismissBanner, state } from '../store';
import { Icon } from './Icon';

/** The last error the background reported, until dismissed. */
export function ErrorBanner() {
  const { banner } = state.value;
  if (!banner) return null;
  return (
    <div class="banner" role="alert" data-code={banner.code}>
      <span>{banner.message}</span>
      <button type="button" class="link-button" onClick={dismissBanner} aria-label="Dismiss error">
        <Icon name="close" />
      </button>
    </div>
  );
}
