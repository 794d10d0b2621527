import { resources } from '@mostrador/contract';
import { createElement, Fragment } from 'react';
import { defineScreen } from '../../components/crud/types';
import { LabelPeopleCell, LabelPeoplePanel, LabelPeopleRetryButton } from './people';
import { FacebookLabelSyncButton } from './sync-button';

export const screen = defineScreen({
  resource: resources['facebook-labels'],
  title: 'Etiquetas de Facebook',
  subtitle:
    'Las etiquetas de Messenger de tu página de Facebook: «Sincronizar con Facebook» trae las de la página y crea allí las tuyas; un lead de Messenger que recibe la etiqueta relacionada la recibe también en la página',
  newLabel: 'Nueva etiqueta de Facebook',
  editLabel: 'Editar etiqueta de Facebook',
  emptyMessage: 'Aún no hay etiquetas de Facebook',
  noResultsMessage: 'Ninguna etiqueta de Facebook coincide con la búsqueda',
  columns: [
    'name',
    { field: 'facebookLabelId', hideOnMobile: true },
    'foreignLabelId',
    // on a phone, beside the name: how many people carry it at Facebook
    { field: 'people', label: 'En Facebook', hideOnMobile: false, render: (row) => createElement(LabelPeopleCell, { facebookLabelId: row.facebookLabelId as string | undefined }) },
  ],
  fields: { facebookLabelId: { label: 'Id en Facebook' }, foreignLabelId: { label: 'Etiqueta relacionada' } },
  toolbar: () => createElement(Fragment, null, createElement(LabelPeopleRetryButton), createElement(FacebookLabelSyncButton)),
  panel: () => createElement(LabelPeoplePanel),
});
