import Alert from '@mui/material/Alert';
import Backdrop from '@mui/material/Backdrop';
import CircularProgress from '@mui/material/CircularProgress';
import Snackbar from '@mui/material/Snackbar';
import { closeErrors, closeSuccess, useFeedback } from '../../lib/feedback';
import { useT } from '../../i18n';

/** SPEC §9: the success snackbar hides after 3000 ms; the error one stays until closed. */
export const SUCCESS_AUTO_HIDE_MS = 3000;

/**
 * The global interface of SPEC §2: loading overlay, success snackbar, error snackbar.
 * Loaded on demand by FeedbackHost, so first paint does not pay for it.
 */
export function FeedbackView() {
  const t = useT();
  const { loading, success, errors } = useFeedback();
  return (
    <>
      <Backdrop
        open={loading > 0}
        data-testid="loading-overlay"
        sx={(theme) => ({ color: '#fff', zIndex: theme.zIndex.modal + 1 })}
      >
        <CircularProgress color="inherit" aria-label={t('feedback.loading')} />
      </Backdrop>
      <Snackbar
        key={success?.id ?? 'success'}
        open={!!success}
        autoHideDuration={SUCCESS_AUTO_HIDE_MS}
        onClose={(_, reason) => reason !== 'clickaway' && closeSuccess()}
        anchorOrigin={{ vertical: 'top', horizontal: 'center' }}
      >
        <Alert
          severity="success"
          variant="filled"
          onClose={closeSuccess}
          data-testid="success-snackbar"
          slotProps={{ closeButton: { title: t('feedback.close'), 'aria-label': t('feedback.close') } }}
          sx={{ width: '100%' }}
        >
          {success?.detail ? (
            <>
              <div>{success.message}</div>
              <div data-testid="success-detail">{success.detail}</div>
            </>
          ) : (
            success?.message
          )}
        </Alert>
      </Snackbar>
      <Snackbar
        key={errors?.id ?? 'errors'}
        open={!!errors}
        autoHideDuration={null}
        onClose={(_, reason) => reason !== 'clickaway' && closeErrors()}
        anchorOrigin={{ vertical: 'top', horizontal: 'center' }}
      >
        <Alert
          severity="error"
          variant="filled"
          onClose={closeErrors}
          data-testid="error-snackbar"
          slotProps={{ closeButton: { title: t('feedback.close'), 'aria-label': t('feedback.close') } }}
          sx={{ width: '100%', minWidth: 280 }}
        >
          {(errors?.messages ?? []).map((message, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: one error's messages come together, may repeat, and never reorder
            <div key={`${index}:${message}`}>{message}</div>
          ))}
        </Alert>
      </Snackbar>
    </>
  );
}

export default FeedbackView;
